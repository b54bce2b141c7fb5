//! `frontier perm --svg FILE`: the position before and after the solution, a dot a moved point
//! in the colour of the piece on it, ringed where it differs from the solved state.

use svg::node::element::{Circle, Group};
use svg::Document;

use super::{hue, Strip};

/// Room for a point, in pixels.
const STEP: f64 = 18.0;

/// The points per row of a panel: about square, at most 24.
fn per_row(points: usize) -> usize {
    ((points as f64).sqrt().ceil() as usize).clamp(1, 24)
}

/// A position's colours, a dot a point; `goal` rings the ones out of place.
fn dots(colours: &[u8], goal: &[u8], palette: usize) -> Group {
    let across = per_row(colours.len());
    let mut group = Group::new().set("class", "position");
    for (i, &c) in colours.iter().enumerate() {
        let x = (i % across) as f64 * STEP + STEP / 2.0;
        let y = (i / across) as f64 * STEP + STEP / 2.0;
        let wrong = goal.get(i) != Some(&c);
        group = group.add(
            Circle::new()
                .set("class", "point")
                .set("cx", x)
                .set("cy", y)
                .set("r", STEP * 0.38)
                .set("fill", hue(usize::from(c), palette))
                .set("stroke", if wrong { "black" } else { "#999" })
                .set("stroke-width", if wrong { 2.0 } else { 0.5 }),
        );
    }
    group
}

/// The picture of a solution's first and last positions (`states`, the colours at the moved
/// points); `title` heads it.
pub fn draw(states: &[Vec<u8>], title: &str) -> Result<Document, String> {
    let (Some(start), Some(end)) = (states.first(), states.last()) else {
        return Err("the solution has no states".to_owned());
    };
    let palette = start.iter().max().map_or(1, |&c| usize::from(c) + 1);
    let across = per_row(start.len());
    let down = start.len().div_ceil(across).max(1);
    let mut strip = Strip::new(across as f64 * STEP, down as f64 * STEP);
    strip.push(
        "start (ringed: out of place)".to_owned(),
        dots(start, end, palette),
    );
    strip.push("end".to_owned(), dots(end, end, palette));
    Ok(strip.document(title, 2))
}
