//! `frontier board --svg FILE`: the board with the robot's route, an arrow a move: a straight
//! one from cell to cell for Forward and Jump, a curved one in the cell for a turn, and the
//! robot's heading at the start and at the end.

use frontier_board::{Heading, Move, Place, Puzzle, State};
use svg::node::element::{Definitions, Group, Line, Marker, Path, Polygon, Rectangle};
use svg::Document;

use super::{canvas, text, GAP, TEXT};

/// A cell's side, in pixels.
const SIDE: f64 = 44.0;
/// The most columns or rows drawn: a larger board is drawn cropped to the route, and a route
/// that spans more is not drawn.
const MAX_DRAWN: usize = 100;
/// The most moves drawn.
const MAX_MOVES: usize = 20_000;

/// The colour of each kind of move's arrows.
fn colour(mv: Move) -> &'static str {
    match mv {
        Move::Forward => "#1f5fbf",
        Move::Jump => "#e07b00",
        Move::Left | Move::Right => "#6a6a6a",
    }
}

/// The id of the arrowhead marker in `colour`.
fn marker_id(mv: Move) -> &'static str {
    match mv {
        Move::Forward => "head-forward",
        Move::Jump => "head-jump",
        Move::Left | Move::Right => "head-turn",
    }
}

/// One step ahead in `heading` on the screen, where y grows downwards.
fn screen(heading: Heading) -> (f64, f64) {
    let (dx, dy) = heading.delta();
    (dx as f64, -dy as f64)
}

/// The picture of a route: `states` from the start, one after each of `moves`; `title` heads
/// it.
pub fn draw(
    puzzle: &Puzzle,
    states: &[State],
    moves: &[Move],
    title: &str,
) -> Result<Document, String> {
    if moves.len() > MAX_MOVES {
        return Err(format!(
            "the route has {} moves; at most {MAX_MOVES} are drawn",
            moves.len()
        ));
    }
    let board = puzzle.board();
    let (width, height) = (board.width(), board.height());
    // Columns and rows as (column, row from the bottom); the robot waiting below is row -1.
    let spot = |state: &State| -> (i64, i64) {
        match puzzle.place(*state) {
            Place::Cell { x, y } => (x as i64, y as i64),
            Place::Below { column } => (column as i64, -1),
        }
    };
    // The columns and rows drawn: the whole board, or the route's box on a large board.
    let (mut x0, mut x1, mut y0, mut y1) = (0, width as i64 - 1, 0, height as i64 - 1);
    if width > MAX_DRAWN || height > MAX_DRAWN {
        let (mut left, mut right, mut bottom, mut top) = (i64::MAX, 0, i64::MAX, 0);
        for (x, y) in states.iter().map(spot) {
            (left, right) = (left.min(x), right.max(x));
            (bottom, top) = (bottom.min(y.max(0)), top.max(y));
        }
        x0 = (left - 1).max(0);
        x1 = (right + 1).min(width as i64 - 1);
        y0 = (bottom - 1).max(0);
        y1 = (top + 1).min(height as i64 - 1);
        if x1 - x0 >= MAX_DRAWN as i64 || y1 - y0 >= MAX_DRAWN as i64 {
            return Err(format!(
                "the route spans more than {MAX_DRAWN} columns or rows of the {width} x {height} board"
            ));
        }
    }
    let below = states.iter().any(|s| spot(s).1 < 0) && y0 == 0;
    let cols = (x1 - x0 + 1) as f64;
    let rows = (y1 - y0 + 1) as f64 + if below { 1.0 } else { 0.0 };
    let top = GAP + TEXT + 14.0;
    let left = GAP;
    let centre = |(x, y): (i64, i64)| -> (f64, f64) {
        (
            left + (x - x0) as f64 * SIDE + SIDE / 2.0,
            top + (y1 - y) as f64 * SIDE + SIDE / 2.0,
        )
    };
    let legend_y = top + rows * SIDE + GAP + TEXT;
    let room = LEGEND
        .iter()
        .map(|line| super::text_width(line, TEXT - 1.0) + 2.0 * GAP)
        .fold(text_room(title), f64::max);
    let mut document = canvas(
        (left + cols * SIDE + GAP).max(room),
        legend_y + LEGEND.len() as f64 * (TEXT + 4.0) + GAP,
    )
    .add(markers())
    .add(
        text(GAP, GAP + TEXT, title)
            .set("font-size", TEXT + 2.0)
            .set("font-weight", "bold"),
    );
    // The cells, the target's letter picked out.
    let mut cells = Group::new().set("class", "cells");
    for y in (y0..=y1).rev() {
        for x in x0..=x1 {
            let letter = board.letter(x as usize, y as usize).unwrap_or('?');
            let (cx, cy) = centre((x, y));
            let fill = if letter == puzzle.target() {
                "#ffe9a8"
            } else {
                "#f6f6f6"
            };
            cells = cells
                .add(
                    Rectangle::new()
                        .set("class", "cell")
                        .set("x", cx - SIDE / 2.0)
                        .set("y", cy - SIDE / 2.0)
                        .set("width", SIDE)
                        .set("height", SIDE)
                        .set("fill", fill)
                        .set("stroke", "#bbb"),
                )
                // The letter in the corner, out of the arrows' way.
                .add(
                    text(
                        cx - SIDE / 2.0 + 4.0,
                        cy - SIDE / 2.0 + 13.0,
                        &letter.to_string(),
                    )
                    .set("fill", "#8a8a8a"),
                );
        }
    }
    if below {
        if let Some(column) = states.iter().map(spot).find(|s| s.1 < 0).map(|s| s.0) {
            let (cx, cy) = centre((column, -1));
            cells = cells
                .add(
                    Rectangle::new()
                        .set("class", "waiting")
                        .set("x", cx - SIDE / 2.0)
                        .set("y", cy - SIDE / 2.0)
                        .set("width", SIDE)
                        .set("height", SIDE)
                        .set("fill", "none")
                        .set("stroke", "#bbb")
                        .set("stroke-dasharray", "3 3"),
                )
                .add(
                    text(cx - SIDE / 2.0 + 4.0, cy - SIDE / 2.0 + 13.0, "*").set("fill", "#8a8a8a"),
                );
        }
    }
    document = document.add(cells);
    // The route: an arrow a move, turns in a cell drawn a little wider each time.
    let mut route = Group::new().set("class", "route");
    let mut turns_here = 0u32;
    for (pair, &mv) in states.windows(2).zip(moves) {
        let (from, to) = (pair[0], pair[1]);
        let (fx, fy) = centre(spot(&from));
        let arrow = match mv {
            Move::Forward | Move::Jump => {
                turns_here = 0;
                let (tx, ty) = centre(spot(&to));
                // Short of both centres, so that arrows in a line do not overlap.
                let (dx, dy) = ((tx - fx) / 5.0, (ty - fy) / 5.0);
                let line = Line::new()
                    .set("x1", fx + dx)
                    .set("y1", fy + dy)
                    .set("x2", tx - dx)
                    .set("y2", ty - dy);
                let line = match mv {
                    Move::Jump => line.set("stroke-dasharray", "5 3"),
                    _ => line,
                };
                Group::new().add(line)
            }
            Move::Left | Move::Right => {
                let r = 11.0 + 4.0 * f64::from(turns_here % 3);
                turns_here += 1;
                let (ax, ay) = screen(from.heading());
                let (bx, by) = screen(to.heading());
                // Clockwise on the screen for a right turn.
                let sweep = u8::from(mv == Move::Right);
                let d = format!(
                    "M {} {} A {r} {r} 0 0 {sweep} {} {}",
                    fx + r * ax,
                    fy + r * ay,
                    fx + r * bx,
                    fy + r * by
                );
                Group::new().add(Path::new().set("d", d).set("fill", "none"))
            }
        };
        route = route.add(
            arrow
                .set("class", "move")
                .set("data-move", mv.name())
                .set("stroke", colour(mv))
                .set("stroke-width", 2)
                .set("marker-end", format!("url(#{})", marker_id(mv))),
        );
    }
    document = document.add(route);
    // The robot at the start (hollow) and at the end (filled), pointing its heading.
    if let (Some(first), Some(last)) = (states.first(), states.last()) {
        document = document
            .add(robot(centre(spot(first)), first.heading(), "none"))
            .add(robot(centre(spot(last)), last.heading(), "#1f5fbf"));
    }
    for (i, line) in LEGEND.iter().enumerate() {
        document = document.add(
            text(GAP, legend_y + i as f64 * (TEXT + 4.0), line)
                .set("font-size", TEXT - 1.0)
                .set("fill", "#555"),
        );
    }
    Ok(document)
}

/// The lines under the board that say what it shows.
const LEGEND: [&str; 2] = [
    "an arrow a move: Forward (blue), Jump (orange, dashed),",
    "a turn (grey); the robot's heading: at the start hollow, at the end filled",
];

/// The width a line of text needs, the gaps included.
fn text_room(title: &str) -> f64 {
    super::text_width(title, TEXT + 2.0) + 2.0 * GAP
}

/// The robot as a triangle at `(x, y)` pointing `heading`.
fn robot((x, y): (f64, f64), heading: Heading, fill: &str) -> Polygon {
    let (ax, ay) = screen(heading);
    // The tip ahead, the two back corners beside the centre.
    let (px, py) = (-ay, ax);
    let size = SIDE * 0.3;
    let points = format!(
        "{},{} {},{} {},{}",
        x + ax * size,
        y + ay * size,
        x - ax * size * 0.6 + px * size * 0.7,
        y - ay * size * 0.6 + py * size * 0.7,
        x - ax * size * 0.6 - px * size * 0.7,
        y - ay * size * 0.6 - py * size * 0.7,
    );
    Polygon::new()
        .set("class", "robot")
        .set("points", points)
        .set("fill", fill)
        .set("stroke", "#1f5fbf")
        .set("stroke-width", 2)
}

/// The arrowheads, one a colour.
fn markers() -> Definitions {
    let mut defs = Definitions::new();
    for mv in [Move::Forward, Move::Jump, Move::Left] {
        defs = defs.add(
            Marker::new()
                .set("id", marker_id(mv))
                .set("viewBox", (0, 0, 10, 10))
                .set("refX", 8)
                .set("refY", 5)
                .set("markerWidth", if mv == Move::Left { 4 } else { 5 })
                .set("markerHeight", if mv == Move::Left { 4 } else { 5 })
                .set("orient", "auto")
                .add(
                    Path::new()
                        .set("d", "M 0 0 L 10 5 L 0 10 z")
                        .set("fill", colour(mv))
                        .set("stroke", "none"),
                ),
        );
    }
    defs
}
