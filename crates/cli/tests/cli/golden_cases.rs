//! The golden cases: the human and the `--json` output of every command, bad input, usage
//! errors and each command's `--help`, one golden file each (see [`golden`](super::golden)).
//! Every case runs in well under a second and builds no big table.

use frontier_cube::{Cube, Notation};

use crate::golden::{case, Case, TMP};

/// One `#[test]` a case, named after its golden file, and [`CASES`], the list of their names.
macro_rules! golden {
    ($($name:ident => $case:expr;)*) => {
        /// The names of the cases, which are the names of their golden files.
        pub const CASES: &[&str] = &[$(stringify!($name)),*];

        $(
            #[test]
            fn $name() {
                let case: Case = $case;
                case.check(stringify!($name));
            }
        )*
    };
}

/// The seed's board: 17 moves to F.
const SEED_BOARD: &str = "AAAA\nACCB\nADEF\n*\n0 0 N\n";
/// A two-by-two board whose C is 6 moves away.
const AB_AC: &str = "AB\nAC\n";
/// A robot on the B below an A: under the seed's rules it can never go down to A.
const DOWN: &str = "A\nB\n0 0 N\n";

/// A river crossing of the golden cases' own.
const FERRY: &str = r#"name = "Ferry"
rules = ["wolf and goat -> farmer", "goat and cabbage -> farmer"]

[roles]
farmer = 1
wolf = 1
goat = 1
cabbage = 1

[boat]
capacity = 2
rowers = ["farmer"]
"#;

/// Four missionaries and four cannibals with a boat of two cannot cross.
const FOUR_MISSIONARIES: &str = r#"rules = ["missionary -> missionary >= cannibal"]

[roles]
missionary = 4
cannibal = 4

[boat]
capacity = 2
"#;

/// The seed's `rot_U` as an image list: the cube's U.
const SEED_ROT_U: &str = "3 5 8 2 7 1 4 6 33 34 35 12 13 14 15 16 9 10 11 20 21 22 23 24 17 18 19 \
                          28 29 30 31 32 25 26 27 36 37 38 39 40 41 42 43 44 45 46 47 48";
/// TopSpin with ten tokens of two colours: 10!/(5! 5!) = 252 states.
const TWO_COLOUR_TOPSPIN: &str =
    "R: (1,2,3,4,5,6,7,8,9,10)\nF: (1,4)(2,3)\ncolours: {1,2,3,4,5} {6,7,8,9,10}\n";

/// The 8-puzzle's hardest layout (31 moves).
/// A twsearch definition of two corners of a cube (a piece of three facets each): a move that
/// swaps them, twisting both, and one that twists them in place.
const TWO_CORNERS_TWS: &str = "# two corners\nName Two\nSet CORNER 2 3\nSolved\nCORNER\n1 2\nEnd\n\
Move A\nCORNER\n2 1\n1 2\nEnd\nMove T\nCORNER\n1 2\n1 2\nEnd\n";

const HARDEST_8: &str = "8 6 7 2 5 4 3 0 1";
/// Korf's ninth 15-puzzle, with the blank first in its goal.
const KORF9: &str = "3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0";
const KORF_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
/// An 11-move scramble: past the short search, so two-phase's tables are built and used.
const ELEVEN_MOVES: &str = "R U R' U' F2 D L B2 R' U F";

/// The facelets of `scramble` (in WCA notation) applied to a solved cube.
fn facelets(scramble: &str) -> String {
    Cube::from_scramble(scramble, Notation::Wca)
        .expect("a valid scramble")
        .to_facelets()
        .to_string()
}

/// `path` inside the case's temporary directory.
fn tmp(path: &str) -> String {
    format!("{TMP}/{path}")
}

golden! {
    // The top level and usage errors.
    help => case(["--help"]);
    usage_no_command => case::<[&str; 0], &str>([]);
    usage_unknown_command => case(["tyles"]);
    usage_unknown_flag => case(["tiles", "1 2 3 0", "--bogus"]);
    usage_bad_timeout => case(["river", "family", "--timeout", "soon"]);
    usage_bad_threads => case(["river", "family", "--threads", "0"]);
    usage_list_with_a_preset => case(["river", "family", "--list"]);
    usage_weight_without_heuristic => case(["river", "family", "--weight", "2"]);

    // board
    board_help => case(["board", "--help"]);
    board_seed => case(["board".to_owned(), tmp("seed.board")]).file("seed.board", SEED_BOARD);
    board_seed_json => case(["board", "-", "--json"]).stdin(SEED_BOARD);
    board_seed_stats => case(["board", "-", "--stats"]).stdin(SEED_BOARD);
    board_seed_quiet => case(["board", "-", "--quiet"]).stdin(SEED_BOARD);
    board_ab_ac_target_c => case(["board", "-", "--target", "C"]).stdin(AB_AC);
    board_ab_ac_target_c_json => case(["board", "-", "--target", "C", "--json"]).stdin(AB_AC);
    board_unsolvable => case(["board", "-", "--target", "A"]).stdin(DOWN);
    board_unsolvable_json => case(["board", "-", "--target", "A", "--json"]).stdin(DOWN);
    board_lightbot => case(["board", "-", "--target", "A", "--rules", "lightbot"]).stdin(DOWN);
    board_lightbot_json =>
        case(["board", "-", "--target", "A", "--rules", "lightbot", "--json"]).stdin(DOWN);
    board_depth_limit => case(["board", "-", "--max-depth", "5", "--stats"]).stdin(SEED_BOARD);
    board_depth_limit_json => case(["board", "-", "--max-depth", "5", "--json"]).stdin(SEED_BOARD);
    board_malformed => case(["board", "-"]).stdin("AB\nABC\n");
    board_missing_file => case(["board".to_owned(), tmp("nothing-here.board")]);
    board_unknown_target => case(["board", "-", "--target", "Z"]).stdin(AB_AC);
    // The seed's tree to depth 3 (its drawForest picture) and the seed's lesson, measured.
    board_seed_tree => case(["board", "-", "--tree", "3"]).stdin(SEED_BOARD);
    board_seed_tree_json => case(["board", "-", "--tree", "2", "--json"]).stdin(SEED_BOARD);
    board_seed_compare => case(["board", "-", "--compare"]).stdin(SEED_BOARD);
    board_seed_compare_json =>
        case(["board", "-", "--compare", "bfs,tree-bfs", "--json"]).stdin(SEED_BOARD);
    board_compare_unknown_solver => case(["board", "-", "--compare", "bfs,quick"]).stdin(SEED_BOARD);
    // Pictures: a path that cannot be written fails before the search; no answer, no picture.
    board_svg_bad_path =>
        case(["board".to_owned(), "-".into(), "--svg".into(), tmp("missing/route.svg")])
            .stdin(SEED_BOARD);
    board_svg_unsolvable =>
        case(["board".to_owned(), "-".into(), "--target".into(), "A".into(), "--svg".into(),
            tmp("route.svg")])
            .stdin(DOWN);
    explore_scale_without_picture => case(["explore", "tiles", "--scale", "log"]);

    // river
    river_help => case(["river", "--help"]);
    river_list => case(["river", "--list"]);
    river_list_json => case(["river", "--list", "--json"]);
    river_show => case(["river", "--show", "wolf-goat-cabbage"]);
    river_show_json => case(["river", "--show", "wolf-goat-cabbage", "--json"]);
    river_family => case(["river", "family", "--stats"]);
    river_family_json => case(["river", "family", "--json"]);
    river_family_quiet => case(["river", "family", "--quiet"]);
    river_wolf_goat_cabbage => case(["river", "wolf-goat-cabbage"]);
    river_missionaries => case(["river", "missionaries"]);
    river_jealous_husbands => case(["river", "jealous-husbands"]);
    river_bridge_torch => case(["river", "bridge-torch", "--stats"]);
    river_bridge_torch_json => case(["river", "bridge-torch", "--json"]);
    river_custom => case(["river".to_owned(), tmp("ferry.toml")]).file("ferry.toml", FERRY);
    river_custom_json => case(["river", "-", "--json"]).stdin(FERRY);
    river_unsolvable =>
        case(["river".to_owned(), tmp("four.toml")]).file("four.toml", FOUR_MISSIONARIES);
    river_unsolvable_json => case(["river", "-", "--json"]).stdin(FOUR_MISSIONARIES);
    river_bad_toml => case(["river", "-"]).stdin("[roles]\nfarmer = \n");
    river_unknown_role => case(["river", "-"])
        .stdin("rules = [\"wolf -> farmer\"]\n[roles]\nfarmer = 1\n[boat]\ncapacity = 1\n");
    river_unknown_preset => case(["river", "no-such-preset"]);
    // 10^15 states take more memory than any machine has: kept, with a warning.
    river_budget_past_memory =>
        case(["river", "wolf-goat-cabbage", "--max-states", "1000000000000000"]);
    river_timeout => case(["river", "family", "--timeout", "0"]);

    // cube
    cube_help => case(["cube", "--help"]);
    cube_short => case(["cube", "R U R' U'", "--stats"]);
    cube_short_json => case(["cube", "R U R' U'", "--json"]);
    cube_show => case(["cube", "R U", "--show"]);
    cube_seed_notation => case(["cube", "B l U L B", "--notation", "seed"]);
    cube_seed_notation_json => case(["cube", "B l U L B", "--notation", "seed", "--json"]);
    cube_qtm => case(["cube", "R2 U", "--metric", "qtm"]);
    cube_qtm_json => case(["cube", "R2 U", "--metric", "qtm", "--json"]);
    cube_facelets => case(["cube".to_owned(), "--facelets".to_owned(), facelets("R U F")]);
    cube_facelets_json =>
        case(["cube".to_owned(), "--facelets".to_owned(), facelets("R U F"), "--json".to_owned()]);
    cube_solved => case(["cube".to_owned(), "--facelets".to_owned(), facelets("")]);
    // To a pattern: from R U to the cube R makes, one move (U').
    cube_target => case(["cube".to_owned(), "R U".to_owned(), "--target".to_owned(), facelets("R")]);
    cube_twophase => case(["cube", ELEVEN_MOVES, "--solver", "twophase", "--stats"]);
    cube_twophase_json => case(["cube", ELEVEN_MOVES, "--solver", "twophase", "--json"]);
    cube_bad_colour_count =>
        case(["cube", "--facelets", "UUUUUUUURRRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBU"]);
    cube_twisted_corner => {
        // Turning the first facelet of the U face's corner by a third twists one corner.
        let solved = facelets("");
        let mut twisted: Vec<char> = solved.chars().collect();
        let (u, r, f) = (8, 9, 20);
        (twisted[u], twisted[r], twisted[f]) = (twisted[f], twisted[u], twisted[r]);
        case(["cube".to_owned(), "--facelets".to_owned(), twisted.into_iter().collect()])
    };
    cube_bad_move => case(["cube", "R Q"]);
    cube_bad_metric => case(["cube", "R", "--metric", "bad"]);

    // tiles
    tiles_help => case(["tiles", "--help"]);
    tiles_default => case(["tiles", HARDEST_8, "--stats"]);
    tiles_default_json => case(["tiles", HARDEST_8, "--json"]);
    tiles_manhattan => case(["tiles", HARDEST_8, "--heuristic", "manhattan", "--stats"]);
    tiles_manhattan_json => case(["tiles", HARDEST_8, "--heuristic", "manhattan", "--json"]);
    tiles_size => case(["tiles", "1 2 3 4 0 5", "--size", "2x3"]);
    tiles_size_json => case(["tiles", "4 1 2 0 5 3", "--size", "2x3", "--json"]);
    tiles_goal => case(["tiles", "1 2 3 4 5 6 7 8 0", "--goal", "0 1 2 3 4 5 6 7 8"]);
    tiles_goal_json =>
        case(["tiles", "1 2 3 4 5 6 7 8 0", "--goal", "0 1 2 3 4 5 6 7 8", "--json"]);
    tiles_unsolvable => case(["tiles", "1 2 3 4 5 6 8 7 0"]);
    tiles_unsolvable_json => case(["tiles", "1 2 3 4 5 6 8 7 0", "--json"]);
    tiles_stages => case(["tiles", KORF9, "--goal", KORF_GOAL, "--solver", "stages", "--stats"]);
    tiles_stages_json =>
        case(["tiles", KORF9, "--goal", KORF_GOAL, "--solver", "stages", "--json"]);
    tiles_missing_blank => case(["tiles", "1 2 3"]);
    tiles_bad_size => case(["tiles", "1 2 3 0", "--size", "3x3"]);

    // perm
    perm_help => case(["perm", "--help"]);
    perm_list => case(["perm", "--list"]);
    perm_list_json => case(["perm", "--list", "--json"]);
    perm_show => case(["perm", "cube2", "--show"]);
    perm_seed_qtm => case(["perm", "cube3", "B L' U L B", "--metric", "qtm"]);
    perm_seed_qtm_json => case(["perm", "cube3", "B L' U L B", "--metric", "qtm", "--json"]);
    perm_seed_quiet => case(["perm", "cube3", "B L' U L B", "--metric", "qtm", "--quiet"]);
    perm_megaminx_powers => case(["perm", "megaminx", "U2 R'"]);
    perm_solved => case(["perm", "skewb"]);
    perm_position_images =>
        case(["perm", "cube3", "--position", SEED_ROT_U, "--json"]);
    perm_order => case(["perm", "megaminx", "--order"]);
    perm_order_json => case(["perm", "cube3", "--order", "--json"]);
    perm_order_small_json => case(["perm", "cube2", "--order", "--json"]);
    perm_order_coloured => case(["perm", "-", "--order"]).stdin(TWO_COLOUR_TOPSPIN);
    perm_unreachable => case(["perm", "cube3", "--position", "(1,9,35)"]);
    perm_unreachable_json => case(["perm", "cube3", "--position", "(1,9,35)", "--json"]);
    perm_odd => case(["perm", "pyraminx", "--position", "(15,33)"]);
    perm_custom => case(["perm".to_owned(), tmp("swap.perm"), "A B".to_owned()])
        .file("swap.perm", "# two moves\nA: (1,2,3)\nB: (3,4)\n");
    perm_bad_point => case(["perm", "-"]).stdin("A: (1,2)\nB: (2,3,2)\n");
    perm_bad_scramble => case(["perm", "cube3", "U X"]);
    perm_unknown_preset => case(["perm", "no-such-puzzle"]);
    perm_bfs => case(["perm", "topspin10", "R F R'", "--algo", "bfs"]);
    perm_cube2_tree => case(["perm", "cube2", "--tree", "2"]);
    perm_compare => case(["perm", "cube2", "R U F'", "--compare", "bfs,idastar,bidirectional"]);
    perm_tws => case(["perm".to_owned(), tmp("two.tws"), "A T".to_owned()])
        .file("two.tws", TWO_CORNERS_TWS);
    perm_tws_order => case(["perm", "-", "--order"]).stdin(TWO_CORNERS_TWS);
    perm_tws_show => case(["perm", "-", "--show"]).stdin(TWO_CORNERS_TWS);
    perm_tws_bad => case(["perm".to_owned(), tmp("bad.tws")])
        .file("bad.tws", "Set CORNER 2 3\nMove A\nCORNER\n2 2\nEnd\n");
    perm_tws_no_end => case(["perm", "-"]).stdin("Set CORNER 2 3\nMove A\nCORNER\n2 1\n");
    perm_chain => case(["perm", "cube3", ELEVEN_MOVES, "--solver", "chain"]);
    perm_chain_json => case(["perm", "pyraminx", "U R' L B", "--solver", "chain", "--json"]);
    // Tables past --max-states: the stabiliser chain answers, no table built or read.
    perm_chain_small_budget => case(["perm", "cube3", ELEVEN_MOVES, "--solver", "chain", "--max-states", "1000000"]);
    perm_chain_qtm_quiet =>
        case(["perm", "cube2", "R U2 F'", "--solver", "chain", "--metric", "qtm", "--quiet"]);
    perm_chain_unreachable => case(["perm", "cube3", "--position", "(1,9,35)", "--solver", "chain"]);
    perm_chain_algo => case(["perm", "cube2", "R", "--solver", "chain", "--algo", "bfs"]);

    // explore
    explore_help => case(["explore", "--help"]);
    explore_board_help => case(["explore", "board", "--help"]);
    explore_river_help => case(["explore", "river", "--help"]);
    explore_cube_help => case(["explore", "cube", "--help"]);
    explore_tiles_help => case(["explore", "tiles", "--help"]);
    explore_board =>
        case(["explore".to_owned(), "board".to_owned(), tmp("seed.board")])
            .file("seed.board", SEED_BOARD);
    explore_board_json => case(["explore", "board", "-", "--json"]).stdin(SEED_BOARD);
    explore_river => case(["explore", "river", "family", "--stats"]);
    explore_river_json => case(["explore", "river", "family", "--json"]);
    explore_tiles_2x3 => case(["explore", "tiles", "--size", "2x3"]);
    explore_tiles_3x3_json => case(["explore", "tiles", "--size", "3x3", "--json"]);
    explore_cube => case(["explore", "cube", "--max-depth", "3"]);
    explore_cube_json => case(["explore", "cube", "--max-depth", "3", "--json"]);
    explore_cube_quiet => case(["explore", "cube", "--max-depth", "3", "--quiet"]);
    explore_state_limit => case(["explore", "board", "-", "--max-states", "2"]).stdin(AB_AC);
    explore_timeout_json => case(["explore", "river", "family", "--timeout", "0", "--json"]);
    explore_bad_option => case(["explore", "cube", "--algo", "bfs"]);
    explore_perm_help => case(["explore", "perm", "--help"]);
    explore_perm => case(["explore", "perm", "cube2", "--max-depth", "5"]);
    explore_perm_qtm_json => case(["explore", "perm", "topspin10", "--metric", "qtm", "--json", "--max-depth", "6"]);
}
