//! `frontier tiles --svg FILE`: the board before and after the solution, or with `--show` a
//! strip of the board after every move.

use frontier_tiles::Shape;
use svg::node::element::{Group, Rectangle};
use svg::Document;

use super::{centred, check_panels, shorten, Strip};

/// A cell's side, in pixels.
const SIDE: f64 = 30.0;

/// A layout (tiles row by row, 0 the blank) as a grid: a tile in its goal cell green, one out
/// of place grey, the blank a light cell.
fn grid(shape: Shape, board: &[u8], goal: &[u8]) -> Group {
    let mut group = Group::new().set("class", "board");
    for (i, &tile) in board.iter().enumerate() {
        let x = (i % shape.cols()) as f64 * SIDE;
        let y = (i / shape.cols()) as f64 * SIDE;
        let (class, fill) = match tile {
            0 => ("blank", "#f4f4f4"),
            t if goal.get(i) == Some(&t) => ("tile", "#9fd49b"),
            _ => ("tile", "#d9d9d9"),
        };
        group = group.add(
            Rectangle::new()
                .set("class", class)
                .set("x", x + 1.0)
                .set("y", y + 1.0)
                .set("width", SIDE - 2.0)
                .set("height", SIDE - 2.0)
                .set("rx", 3)
                .set("fill", fill)
                .set("stroke", "#555"),
        );
        if tile != 0 {
            group = group.add(centred(
                x + SIDE / 2.0,
                y + SIDE / 2.0,
                13.0,
                &tile.to_string(),
            ));
        }
    }
    group
}

/// The picture of a solution: its start and end layouts (`states`, the layout after each of
/// the `moves`), or with `show` every layout; `length` says how long it is.
pub fn draw(
    shape: Shape,
    goal: &[u8],
    states: &[Vec<u8>],
    moves: &[String],
    show: bool,
    length: &str,
) -> Result<Document, String> {
    let (Some(start), Some(end)) = (states.first(), states.last()) else {
        return Err("the solution has no states".to_owned());
    };
    let mut strip = Strip::new(shape.cols() as f64 * SIDE, shape.rows() as f64 * SIDE);
    strip.push("start".to_owned(), grid(shape, start, goal));
    if show {
        check_panels(states.len(), "boards")?;
        for (i, (mv, after)) in moves.iter().zip(&states[1..]).enumerate() {
            strip.push(format!("{}. {mv}", i + 1), grid(shape, after, goal));
        }
    } else {
        strip.push("end".to_owned(), grid(shape, end, goal));
    }
    let solution = if moves.is_empty() {
        "(none: the tiles are in place)".to_owned()
    } else {
        shorten(&moves.join(" "))
    };
    let per_row = (720.0 / (shape.cols() as f64 * SIDE)).floor().max(1.0) as usize;
    Ok(strip.document(&format!("{solution}  ({length})"), per_row))
}
