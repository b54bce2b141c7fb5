//! The invariants found from the generators: the pieces, parity rules and twists of the
//! presets, and the reasons a position outside the group is refused.

use frontier_perm::{preset, Analysis, Invariant, Part, Perm, Unreachable};
use proptest::prelude::*;

fn analysis(name: &str) -> (frontier_perm::Puzzle, Analysis) {
    let puzzle = preset(name).unwrap().puzzle();
    let analysis = Analysis::of(&puzzle);
    (puzzle, analysis)
}

/// Each orbit's number of pieces and points a piece.
fn piece_shapes(analysis: &Analysis) -> Vec<(usize, usize)> {
    (analysis.invariants.pieces())
        .map(|pieces| (pieces.len(), pieces[0].len()))
        .collect()
}

#[test]
fn the_cubes_pieces_and_laws_come_from_its_generators() {
    // The 3x3x3's 48 facets: 8 corners of 3 facets, 12 edges of 2. Its laws (Bandelow,
    // "Inside Rubik's Cube and Beyond", 1982; Joyner, "Adventures in Group Theory", ch. 11):
    // corner and edge permutations of equal parity, corner twists adding up to 0 mod 3, edge
    // flips to 0 mod 2.
    let (_, cube) = analysis("cube3");
    assert_eq!(piece_shapes(&cube), [(8, 3), (12, 2)]);
    let rules = cube.invariants.rules();
    assert!(rules.contains(&Invariant::Parity(vec![Part::Pieces(1), Part::Pieces(2)])));
    assert!(rules.contains(&Invariant::Twist {
        orbit: 1,
        modulus: 3
    }));
    assert!(rules.contains(&Invariant::Twist {
        orbit: 2,
        modulus: 2
    }));
    // A quarter turn moves 2 x 4-cycles of edge facets: they are always permuted evenly.
    assert!(rules.contains(&Invariant::Parity(vec![Part::Points(2)])));
    // Four parts (corner facets and corners, edge facets and edges), one generator parity
    // vector: three independent rules, plus the two twists.
    assert_eq!(rules.len(), 5, "{rules:?}");
}

#[test]
fn other_presets_pieces() {
    // Megaminx: 20 corners of 3 facets, 30 edges of 2; Pyraminx: 4 tips and 4 axial
    // centres of 3 facets each (orbits of 3: single points), 6 edges of 2.
    let (_, megaminx) = analysis("megaminx");
    assert_eq!(piece_shapes(&megaminx), [(20, 3), (30, 2)]);
    let (_, cube2) = analysis("cube2");
    assert_eq!(piece_shapes(&cube2), [(7, 3)]);
    // The 2x2x2 with one corner fixed: twists add up to 0 mod 3; a quarter turn is a 4-cycle
    // of corners, so no parity rule binds its corners.
    assert!(cube2.invariants.rules().contains(&Invariant::Twist {
        orbit: 1,
        modulus: 3
    }));
}

#[test]
fn positions_outside_the_group_are_refused_with_a_reason() {
    let (cube, analysis) = analysis("cube3");
    let why = |position: &str| analysis.unreachable(&cube.parse_position(position).unwrap());
    assert!(matches!(
        why("(1,2)"),
        Some(Unreachable::Orbit { from: 1, to: 2 })
    ));
    // Points 1, 9 and 35 are one corner (GAP's numbering of the facets).
    assert!(matches!(why("(1,3)"), Some(Unreachable::Piece { .. })));
    assert!(matches!(
        why("(1,9,35)"),
        Some(Unreachable::Twist {
            orbit: 1,
            size: 3,
            modulus: 3,
            ..
        })
    ));
    assert!(matches!(why("(1,9)"), Some(Unreachable::Mirrored { .. })));
    let edges: Vec<Vec<u8>> = analysis.invariants.pieces().nth(1).unwrap().to_vec();
    let (a, b) = (&edges[0], &edges[1]);
    let flip = format!("({},{})", a[0] + 1, a[1] + 1);
    assert!(matches!(
        why(&flip),
        Some(Unreachable::Twist {
            orbit: 2,
            sum: 1,
            size: 2,
            modulus: 2
        })
    ));
    // Two edges swapped, each facet to its place: the edges' parity is odd, the corners' even.
    let swap = format!("({},{})({},{})", a[0] + 1, b[0] + 1, a[1] + 1, b[1] + 1);
    let Some(Unreachable::Parities { rule }) = why(&swap) else {
        panic!("{:?}", why(&swap));
    };
    assert!(
        rule.contains("orbit 1's pieces and orbit 2's pieces"),
        "{rule}"
    );
    let reached = cube.apply(&cube.parse_moves("F2 R' D").unwrap());
    assert_eq!(analysis.unreachable(&reached), None);
    // The Pyraminx's generators are all even (3-cycles): an odd position is refused for it.
    let (pyraminx, analysis) = self::analysis("pyraminx");
    let odd = pyraminx.parse_position("(15,33)(16,34)(17,35)").unwrap();
    assert_eq!(analysis.unreachable(&odd), Some(Unreachable::Parity));
}

/// A random position of the 3x3x3's pieces: any permutation of corners and of edges, each
/// piece put down in any rotation of its facets (`picks` drawn by proptest).
fn any_arrangement(analysis: &Analysis, picks: &[u32]) -> Perm {
    let mut images = vec![0u8; 48];
    let mut pick = picks.iter().copied().cycle();
    for pieces in analysis.invariants.pieces() {
        let mut targets: Vec<&Vec<u8>> = pieces.iter().collect();
        for piece in pieces {
            let target = targets.remove(pick.next().unwrap() as usize % targets.len());
            let turn = pick.next().unwrap() as usize;
            for (k, &p) in piece.iter().enumerate() {
                images[usize::from(p)] = target[(k + turn) % target.len()];
            }
        }
    }
    Perm::from_images(images).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// On the 3x3x3 the laws are complete: an arrangement of its pieces keeps them exactly
    /// when it is a position of the group (decided by sifting).
    #[test]
    fn the_cubes_laws_decide_membership(picks in proptest::collection::vec(any::<u32>(), 40)) {
        let (_, analysis) = analysis("cube3");
        let position = any_arrangement(&analysis, &picks);
        let broken = analysis.invariants.broken_by(&position);
        prop_assert_eq!(broken.is_none(), analysis.group.contains(&position), "{:?}", broken);
    }

    /// No product of the generators breaks an invariant, on every preset.
    #[test]
    fn positions_of_the_group_keep_every_invariant(
        name in proptest::sample::select(vec!["cube3", "cube2", "pyraminx", "skewb", "megaminx", "topspin"]),
        picks in proptest::collection::vec(any::<u8>(), 0..40),
    ) {
        let (puzzle, analysis) = analysis(name);
        let gens: Vec<Perm> = puzzle.generators().iter().map(|g| g.perm.clone()).collect();
        let position = picks
            .iter()
            .fold(Perm::identity(puzzle.points()), |p, &k| p.then(&gens[usize::from(k) % gens.len()]));
        prop_assert_eq!(analysis.unreachable(&position), None);
    }
}
