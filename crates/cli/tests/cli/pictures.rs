//! `--svg FILE` and `--png FILE`: the pictures read back (the SVG as XML, the PNG decoded) and
//! checked against the answer the same run printed.

use std::path::Path;

use resvg::tiny_skia::Pixmap;

use crate::support::{frontier, json, stderr, stdout, temp_dir, TempFile};

const SEED: &str = "AAAA\nACCB\nADEF\n*\n0 0 N\n";

/// The text of an SVG file the run wrote.
fn read_svg(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The elements called `tag` with class `class` in `svg`, which must parse as XML.
fn elements<'a>(
    doc: &'a roxmltree::Document<'a>,
    tag: &'a str,
    class: &'a str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'a>> + 'a {
    doc.descendants()
        .filter(move |n| n.has_tag_name(tag) && n.attribute("class") == Some(class))
}

fn parse(text: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not XML ({e}): {text}"))
}

/// A run's answer as JSON, with its picture written to `svg`.
fn solve_with_svg(args: &[&str], svg: &Path) -> serde_json::Value {
    let out = frontier(args).arg("--json").arg("--svg").arg(svg).output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    json(&out)
}

/// The names of an answer's moves, as its JSON gives them.
fn moves(answer: &serde_json::Value) -> Vec<String> {
    (answer["moves"].as_array().expect("moves"))
        .iter()
        .map(|m| m.as_str().expect("a move name").to_owned())
        .collect()
}

#[test]
fn the_board_has_a_cell_a_letter_and_an_arrow_a_move() {
    let board = TempFile::new("seed.board", SEED);
    let svg = board.dir().join("route.svg");
    let answer = solve_with_svg(&["board", board.to_str().unwrap()], &svg);
    let text = read_svg(&svg);
    let doc = parse(&text);
    // The seed's board is 4 x 3, and the robot waits below it.
    assert_eq!(elements(&doc, "rect", "cell").count(), 12);
    assert_eq!(elements(&doc, "rect", "waiting").count(), 1);
    let drawn: Vec<&str> = elements(&doc, "g", "move")
        .map(|n| n.attribute("data-move").expect("each arrow names its move"))
        .collect();
    assert_eq!(drawn.len(), answer["length"].as_u64().unwrap() as usize);
    assert_eq!(drawn, moves(&answer));
    // The robot at the start and at the end, each pointing its heading.
    assert_eq!(elements(&doc, "polygon", "robot").count(), 2);
}

#[test]
fn the_cube_shows_its_54_facelets_before_and_after() {
    let dir = temp_dir();
    let svg = dir.path().join("cube.svg");
    let answer = solve_with_svg(&["cube", "R U F'"], &svg);
    let text = read_svg(&svg);
    let doc = parse(&text);
    let nets: Vec<Vec<String>> = elements(&doc, "g", "net")
        .map(|net| {
            (net.children().filter(|n| n.has_tag_name("rect")))
                .map(|r| r.attribute("fill").unwrap().to_owned())
                .collect()
        })
        .collect();
    assert_eq!(nets.len(), 2);
    assert_eq!(elements(&doc, "rect", "facelet").count(), 2 * 54);
    // The end is solved, a colour a face; the start is not.
    let solved = |net: &[String]| net.chunks(9).all(|face| face.iter().all(|c| *c == face[4]));
    assert!(solved(&nets[1]), "{:?}", nets[1]);
    assert!(!solved(&nets[0]));
    // With --show, a net after every move.
    let show = dir.path().join("show.svg");
    let out = frontier(["cube", "R U F'", "--show", "--quiet", "--svg"])
        .arg(&show)
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let length = moves(&answer).len();
    let text = read_svg(&show);
    assert_eq!(
        elements(&parse(&text), "rect", "facelet").count(),
        54 * (length + 1)
    );
}

#[test]
fn the_river_plan_has_a_row_a_crossing() {
    let dir = temp_dir();
    let svg = dir.path().join("plan.svg");
    let answer = solve_with_svg(&["river", "family"], &svg);
    let text = read_svg(&svg);
    let doc = parse(&text);
    let trips = answer["moves"].as_array().unwrap();
    let crossings: Vec<String> = elements(&doc, "g", "crossing")
        .map(|g| {
            let label = g.children().find(|n| n.has_tag_name("text")).unwrap();
            label.text().unwrap_or("").to_owned()
        })
        .collect();
    assert_eq!(crossings.len(), trips.len());
    // Each crossing is labelled with who is aboard.
    for (label, trip) in crossings.iter().zip(trips) {
        for name in trip.as_array().unwrap() {
            assert!(label.contains(name.as_str().unwrap()), "{label} {trip}");
        }
    }
    // A row for the start and one after each crossing.
    assert_eq!(elements(&doc, "g", "row").count(), trips.len() + 1);
}

#[test]
fn the_tiles_are_drawn_before_and_after_and_at_every_move_with_show() {
    let dir = temp_dir();
    let svg = dir.path().join("tiles.svg");
    let answer = solve_with_svg(&["tiles", "1 2 3 4 5 6 0 7 8"], &svg);
    let text = read_svg(&svg);
    let doc = parse(&text);
    assert_eq!(elements(&doc, "g", "board").count(), 2);
    assert_eq!(elements(&doc, "rect", "tile").count(), 2 * 8);
    assert_eq!(elements(&doc, "rect", "blank").count(), 2);
    let show = dir.path().join("show.svg");
    let out = frontier(["tiles", "1 2 3 4 5 6 0 7 8", "--show", "--svg"])
        .arg(&show)
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let boards = moves(&answer).len() + 1;
    let text = read_svg(&show);
    assert_eq!(elements(&parse(&text), "rect", "blank").count(), boards);
}

#[test]
fn the_perm_position_is_a_dot_a_moved_point() {
    let order = frontier(["perm", "cube2", "--order", "--json"]).output();
    let moved = json(&order)["moved"].as_u64().unwrap() as usize;
    let dir = temp_dir();
    let svg = dir.path().join("perm.svg");
    solve_with_svg(&["perm", "cube2", "R U"], &svg);
    let text = read_svg(&svg);
    assert_eq!(
        elements(&parse(&text), "circle", "point").count(),
        2 * moved
    );
}

#[test]
fn explore_draws_a_bar_a_layer() {
    let dir = temp_dir();
    let svg = dir.path().join("chart.svg");
    let out = frontier([
        "explore", "tiles", "--size", "2x3", "--json", "--scale", "linear",
    ])
    .arg("--svg")
    .arg(&svg)
    .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let layers: Vec<u64> = (json(&out)["layers"].as_array().unwrap())
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    let text = read_svg(&svg);
    let doc = parse(&text);
    let heights: Vec<f64> = elements(&doc, "rect", "bar")
        .map(|r| r.attribute("height").unwrap().parse().unwrap())
        .collect();
    assert_eq!(heights.len(), layers.len());
    // On the linear scale a bar's height is in proportion to its count.
    let most = *layers.iter().max().unwrap() as f64;
    let tallest = heights.iter().copied().fold(0.0, f64::max);
    for (h, &n) in heights.iter().zip(&layers) {
        assert!((h / tallest - n as f64 / most).abs() < 1e-6, "{h} {n}");
    }
}

#[test]
fn the_eight_puzzle_chart_has_32_bars() {
    // The 8-puzzle's states lie at most 31 moves from the goal (Reinefeld, "Complete Solution
    // of the Eight-Puzzle and the Benefit of Node Ordering in IDA*", IJCAI 1993): layers 0 to
    // 31. On the default log scale the single state at distance 0 still shows.
    let dir = temp_dir();
    let svg = dir.path().join("chart.svg");
    let out = frontier(["explore", "tiles", "--size", "3x3", "--quiet", "--svg"])
        .arg(&svg)
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = read_svg(&svg);
    let doc = parse(&text);
    let heights: Vec<f64> = elements(&doc, "rect", "bar")
        .map(|r| r.attribute("height").unwrap().parse().unwrap())
        .collect();
    assert_eq!(heights.len(), 32);
    assert!(heights.iter().all(|&h| h > 0.0), "{heights:?}");
}

/// A PNG's width and height from its IHDR chunk, after checking its signature.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "the PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn a_png_is_the_svg_drawn() {
    let dir = temp_dir();
    let (svg, png) = (dir.path().join("cube.svg"), dir.path().join("cube.png"));
    let out = frontier(["cube", "R U", "--quiet", "--svg"])
        .arg(&svg)
        .arg("--png")
        .arg(&png)
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let bytes = std::fs::read(&png).unwrap();
    let (width, height) = png_size(&bytes);
    assert!(width > 0 && height > 0);
    let text = read_svg(&svg);
    let doc = parse(&text);
    let root = doc.root_element();
    assert_eq!(root.attribute("width"), Some(width.to_string().as_str()));
    assert_eq!(root.attribute("height"), Some(height.to_string().as_str()));
    // It draws: the cube's red (#c41e3a) is among its pixels.
    let pixmap = Pixmap::decode_png(&bytes).expect("the PNG decodes");
    let red = pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == (0xc4, 0x1e, 0x3a))
        .count();
    assert!(red > 100, "{red} red pixels");
}

#[test]
fn every_picture_draws_as_png() {
    let board = TempFile::new("seed.board", SEED);
    let cases: [&[&str]; 4] = [
        &["board", board.to_str().unwrap()],
        &["river", "bridge-torch"],
        &["tiles", "1 2 3 4 5 6 0 7 8"],
        &["explore", "river", "family"],
    ];
    for args in cases {
        let png = board.dir().join("picture.png");
        let out = frontier(args)
            .arg("--quiet")
            .arg("--png")
            .arg(&png)
            .output();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let bytes = std::fs::read(&png).unwrap();
        let (width, height) = png_size(&bytes);
        let pixmap = Pixmap::decode_png(&bytes).expect("the PNG decodes");
        assert_eq!((pixmap.width(), pixmap.height()), (width, height));
        let white = (pixmap.pixels().iter())
            .filter(|p| (p.red(), p.green(), p.blue()) == (255, 255, 255))
            .count();
        assert!(white < pixmap.pixels().len(), "{args:?}: a blank picture");
    }
}

#[test]
fn a_path_that_cannot_be_written_fails_before_the_search() {
    let dir = temp_dir();
    let bad = dir.path().join("no such directory").join("x.svg");
    let out = frontier(["tiles", "8 6 7 2 5 4 3 0 1", "--svg"])
        .arg(&bad)
        .output();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("cannot write a picture to") && err.contains("no such directory/x.svg"),
        "{err}"
    );
    assert_eq!(stdout(&out), "", "nothing was solved");
    let out = frontier(["explore", "tiles", "--png"])
        .arg(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(dir.path().to_str().unwrap()),
        "{}",
        stderr(&out)
    );
}

#[test]
fn no_answer_writes_no_picture_and_keeps_a_file_that_was_there() {
    let dir = temp_dir();
    let new = dir.path().join("new.svg");
    let kept = dir.path().join("kept.svg");
    std::fs::write(&kept, "before").unwrap();
    for (path, existed) in [(&new, false), (&kept, true)] {
        // An odd permutation of the 8-puzzle: unsolvable.
        let out = frontier(["tiles", "2 1 3 4 5 6 7 8 0", "--svg"])
            .arg(path)
            .output();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("no picture written"),
            "{}",
            stderr(&out)
        );
        assert_eq!(path.exists(), existed);
    }
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "before");
}

#[test]
fn picture_flags_that_do_not_apply_are_refused() {
    let dir = temp_dir();
    let svg = dir.path().join("x.svg");
    let svg = svg.to_str().unwrap();
    let cases: [&[&str]; 5] = [
        &["tiles", "1 2 3 4 5 6 7 0 8", "--scale", "log"],
        &["explore", "tiles", "--scale", "log"],
        &["tiles", "1 2 3 4 5 6 7 0 8", "--tree", "2", "--svg", svg],
        &["cube", "--scramble", "1", "--svg", svg],
        &["river", "--list", "--svg", svg],
    ];
    for args in cases {
        let out = frontier(args).output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!Path::new(svg).exists(), "{args:?}");
    }
}
