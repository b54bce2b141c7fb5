//! Group orders, membership and colourings against published values.

use frontier_perm::{preset, Group, Perm, Puzzle, PRESETS};
use num_bigint::BigUint;

fn group(puzzle: &Puzzle) -> Group {
    let gens: Vec<Perm> = puzzle.generators().iter().map(|g| g.perm.clone()).collect();
    Group::new(puzzle.points(), &gens)
}

fn factorial(n: u32) -> BigUint {
    (1..=n).fold(BigUint::from(1u32), |a, k| a * k)
}

/// The order of every preset's group, against its published value.
#[test]
fn every_preset_has_its_published_order() {
    let expected = |name: &str| -> BigUint {
        match name {
            // Singmaster, "Notes on Rubik's Magic Cube" (1981); GAP's manual, "Analyzing
            // Rubik's Cube with GAP": 43,252,003,274,489,856,000.
            "cube3" => "43252003274489856000".parse().unwrap(),
            // OEIS A079761 (the sum of the 2x2x2's distance distribution): 3,674,160.
            "cube2" => BigUint::from(3_674_160u32),
            // Wikipedia, "Pyraminx": 933,120 positions without the tips, times 3^4 with them.
            "pyraminx" => BigUint::from(75_582_720u32),
            // Wikipedia, "Skewb": 3,149,280 positions.
            "skewb" => BigUint::from(3_149_280u32),
            // Wikipedia, "Megaminx": 20!/2 * 3^19 * 30!/2 * 2^29 positions.
            "megaminx" => "100669616553523347122516032313645505168688116411019768627200000000000"
                .parse()
                .unwrap(),
            // Kaufmann, "TopSpin" (1999), and Chen & Skiena, "Sorting with fixed-length
            // reversals" (1996): with an even turntable every arrangement is reachable.
            "topspin" => factorial(20),
            "topspin10" => factorial(10),
            other => panic!("no published order for {other}"),
        }
    };
    for p in PRESETS {
        assert_eq!(group(&p.puzzle()).order(), expected(p.name), "{}", p.name);
    }
}

/// The seed's generators, its Haskell `rot_X` image lists, are the preset's (GAP's) turns.
#[test]
fn the_seeds_image_lists_are_the_presets_turns() {
    let seed = [
        ("U", "3 5 8 2 7 1 4 6 33 34 35 12 13 14 15 16 9 10 11 20 21 22 23 24 17 18 19 28 29 30 31 32 25 26 27 36 37 38 39 40 41 42 43 44 45 46 47 48"),
        ("D", "1 2 3 4 5 6 7 8 9 10 11 12 13 22 23 24 17 18 19 20 21 30 31 32 25 26 27 28 29 38 39 40 33 34 35 36 37 14 15 16 43 45 48 42 47 41 44 46"),
        ("R", "1 2 38 4 36 6 7 33 9 10 11 12 13 14 15 16 17 18 3 20 5 22 23 8 27 29 32 26 31 25 28 30 48 34 35 45 37 43 39 40 41 42 19 44 21 46 47 24"),
        ("L", "17 2 3 20 5 22 7 8 11 13 16 10 15 9 12 14 41 18 19 44 21 46 23 24 25 26 27 28 29 30 31 32 33 34 6 36 4 38 39 1 40 42 43 37 45 35 47 48"),
        ("F", "1 2 3 4 5 25 28 30 9 10 8 12 7 14 15 6 19 21 24 18 23 17 20 22 43 26 27 42 29 41 31 32 33 34 35 36 37 38 39 40 11 13 16 44 45 46 47 48"),
        ("B", "14 12 9 4 5 6 7 8 46 10 11 47 13 48 15 16 17 18 19 20 21 22 23 24 25 26 1 28 2 30 31 3 35 37 40 34 39 33 36 38 41 42 43 44 45 32 29 27"),
    ];
    let cube = preset("cube3").unwrap().puzzle();
    for (name, images) in seed {
        let g = cube.generators().iter().find(|g| g.name == name).unwrap();
        assert_eq!(cube.parse_position(images).unwrap(), g.perm, "{name}");
    }
}

#[test]
fn positions_outside_the_group_are_not_members() {
    let cube = preset("cube3").unwrap().puzzle();
    let g = group(&cube);
    // Two corner facets of one corner swapped (a twist that is no permutation of pieces),
    // and a single swap of two edges (odd parity): neither is reachable.
    let twist = cube.parse_position("(1,9)").unwrap();
    let swap = cube.parse_position("(2,5)(34,26)").unwrap();
    assert!(!g.contains(&twist) && !g.contains(&swap));
    let reached = cube.apply(&cube.parse_moves("R U R' U' F2 B L'").unwrap());
    assert!(g.contains(&reached));
}

#[test]
fn a_colouring_divides_the_order_by_what_it_cannot_see() {
    // TopSpin with 10 tokens makes every arrangement (order 10!); with tokens 1-5 alike and
    // 6-10 alike, the states are the ways to place 5 alike among 10: 10!/(5! 5!) = 252, and
    // 5! 5! = 14,400 elements keep the colours.
    let text = format!(
        "{}colours: {{1,2,3,4,5}} {{6,7,8,9,10}}\n",
        preset("topspin10").unwrap().text
    );
    let two = Puzzle::parse("two", &text).unwrap();
    let stab = group(&two)
        .colour_stabiliser_order(two.colours(), 1 << 24)
        .unwrap();
    assert_eq!(stab, BigUint::from(14_400u32));
    // The 3x3x3 coloured by face: a facet's colour and its piece's other colours tell every
    // piece apart, so only the identity keeps the colours.
    let mut text = preset("cube3").unwrap().text.to_string();
    text.push_str("colours:");
    for face in 0..6 {
        let points: Vec<String> = (1..=8).map(|k| (face * 8 + k).to_string()).collect();
        text.push_str(&format!(" {{{}}}", points.join(",")));
    }
    let faces = Puzzle::parse("faces", &text).unwrap();
    let stab = group(&faces)
        .colour_stabiliser_order(faces.colours(), 1 << 24)
        .unwrap();
    assert_eq!(stab, BigUint::from(1u32));
    // A budget too small to finish says so.
    assert_eq!(
        group(&two).colour_stabiliser_order(two.colours(), 100),
        None
    );
}
