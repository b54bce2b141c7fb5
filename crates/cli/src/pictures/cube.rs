//! `frontier cube --svg FILE`: the cube's net before and after the solution, or with `--show`
//! a strip of the net after every move.

use frontier_cube::{Cube, Face, Facelets};
use svg::node::element::{Group, Rectangle};
use svg::Document;

use super::{check_panels, shorten, Strip};

/// A facelet's side, in pixels.
const SIDE: f64 = 14.0;

/// The colour a face's facelets are drawn in: the usual scheme, as the terminal drawing has it
/// (U white, R red, F green, D yellow, L orange, B blue).
fn colour(face: Face) -> &'static str {
    match face {
        Face::U => "#ffffff",
        Face::R => "#c41e3a",
        Face::F => "#009e60",
        Face::D => "#ffd500",
        Face::L => "#ff5800",
        Face::B => "#0051ba",
    }
}

/// Where each face's top left facelet sits in the net, in facelets: U on top, then L F R B,
/// then D (as the terminal drawing lays it out).
fn corner(face: Face) -> (usize, usize) {
    match face {
        Face::U => (3, 0),
        Face::L => (0, 3),
        Face::F => (3, 3),
        Face::R => (6, 3),
        Face::B => (9, 3),
        Face::D => (3, 6),
    }
}

/// The cube's net: 54 facelets, each a square of its colour.
fn net(facelets: &Facelets) -> Group {
    let mut group = Group::new().set("class", "net");
    for (f, &face) in Face::ALL.iter().enumerate() {
        let (col, row) = corner(face);
        for i in 0..9 {
            let shown = facelets.colour(f * 9 + i).unwrap_or(face);
            let x = (col + i % 3) as f64 * SIDE;
            let y = (row + i / 3) as f64 * SIDE;
            group = group.add(
                Rectangle::new()
                    .set("class", "facelet")
                    .set("x", x)
                    .set("y", y)
                    .set("width", SIDE)
                    .set("height", SIDE)
                    .set("fill", colour(shown))
                    .set("stroke", "#222")
                    .set("stroke-width", 1),
            );
        }
    }
    group
}

/// The picture of a solution: the start and the end (`states` from the start cube, one after
/// each of the `moves`), or with `show` every state; `length` says how long it is.
pub fn draw(
    states: &[Cube],
    moves: &[String],
    show: bool,
    length: &str,
) -> Result<Document, String> {
    let mut strip = Strip::new(12.0 * SIDE, 9.0 * SIDE);
    let (Some(start), Some(end)) = (states.first(), states.last()) else {
        return Err("the solution has no states".to_owned());
    };
    strip.push("start".to_owned(), net(&start.to_facelets()));
    if show {
        check_panels(states.len(), "cubes")?;
        for (i, (mv, after)) in moves.iter().zip(&states[1..]).enumerate() {
            strip.push(format!("{}. {mv}", i + 1), net(&after.to_facelets()));
        }
    } else {
        strip.push("end".to_owned(), net(&end.to_facelets()));
    }
    let solution = if moves.is_empty() {
        "(none: the cube is solved)".to_owned()
    } else {
        shorten(&moves.join(" "))
    };
    Ok(strip.document(&format!("{solution}  ({length})"), 4))
}
