//! `frontier river --svg FILE`: the plan as a timeline, a row a crossing: who stands on the
//! near bank, the boat crossing the river with who is aboard, and who stands on the far bank
//! after it. Each role keeps its column on each bank, so that people are seen to move across.

use frontier_river::{Bank, RiverSpace, State, Trip};
use svg::node::element::{Definitions, Group, Line, Marker, Path, Rectangle};
use svg::Document;

use super::{canvas, centred, hue, text, text_width, GAP, TEXT};

/// A row's height, in pixels.
const ROW: f64 = 26.0;
/// The most crossings drawn.
const MAX_CROSSINGS: usize = 2_000;
/// The most characters of a role's name shown.
const MAX_NAME: usize = 24;

/// A role's name as the picture shows it: cut at [`MAX_NAME`] characters.
fn short_name(name: &str) -> String {
    if name.chars().count() > MAX_NAME {
        let cut: String = name.chars().take(MAX_NAME - 1).collect();
        format!("{cut}…")
    } else {
        name.to_owned()
    }
}

/// The picture of `plan`'s states (from the start, one after each of its `trips`); `title`
/// heads it.
pub fn draw(
    space: &RiverSpace,
    states: &[State],
    trips: &[Trip],
    title: &str,
) -> Result<Document, String> {
    if trips.len() > MAX_CROSSINGS {
        return Err(format!(
            "the plan has {} crossings; at most {MAX_CROSSINGS} are drawn",
            trips.len()
        ));
    }
    let puzzle = space.puzzle();
    let roles = puzzle.roles();
    let chip = 11.0;
    // Each role's slot on a bank: room for its name and its largest count.
    let slots: Vec<f64> = roles
        .iter()
        .map(|role| {
            let label = match role.count {
                1 => short_name(&role.name),
                n => format!("{}×{n}", short_name(&role.name)),
            };
            text_width(&label, chip) + 14.0
        })
        .collect();
    let bank_width: f64 = slots.iter().sum::<f64>() + 8.0;
    let timed = puzzle.is_timed();
    let trip_label = |trip: Trip| match timed {
        true => format!("{} ({})", space.trip_text(trip), space.trip_time(trip)),
        false => space.trip_text(trip),
    };
    let river_width = trips
        .iter()
        .map(|&t| text_width(&trip_label(t), chip) + 40.0)
        .fold(140.0, f64::max);
    let number_width =
        text_width(&trips.len().to_string(), TEXT).max(text_width("start", TEXT)) + 10.0;
    let near_x = GAP + number_width;
    let river_x = near_x + bank_width;
    let far_x = river_x + river_width;
    let top = GAP + TEXT + 12.0 + ROW;
    let height = top + (trips.len() + 1) as f64 * ROW + GAP;
    let width = (far_x + bank_width + GAP).max(text_width(title, TEXT + 2.0) + 2.0 * GAP);
    let mut document = canvas(width, height).add(arrowhead()).add(
        text(GAP, GAP + TEXT, title)
            .set("font-size", TEXT + 2.0)
            .set("font-weight", "bold"),
    );
    // The banks and the river behind the rows.
    let body = (trips.len() + 1) as f64 * ROW;
    for (x, w, fill) in [
        (near_x, bank_width, "#eef5e6"),
        (river_x, river_width, "#dcebf7"),
        (far_x, bank_width, "#eef5e6"),
    ] {
        document = document.add(
            Rectangle::new()
                .set("x", x)
                .set("y", top)
                .set("width", w)
                .set("height", body)
                .set("fill", fill),
        );
    }
    let headings = Group::new()
        .set("class", "headings")
        .add(centred(
            near_x + bank_width / 2.0,
            top - ROW / 2.0,
            TEXT,
            "near bank",
        ))
        .add(centred(
            river_x + river_width / 2.0,
            top - ROW / 2.0,
            TEXT,
            "river",
        ))
        .add(centred(
            far_x + bank_width / 2.0,
            top - ROW / 2.0,
            TEXT,
            "far bank",
        ));
    document = document.add(headings);
    // Who stands on a bank: a chip a role present, in the role's own slot.
    let bank = |state: State, side: Bank, x: f64, y: f64| -> Group {
        let mut group = Group::new().set("class", "bank");
        let mut slot_x = x + 4.0;
        for (r, role) in roles.iter().enumerate() {
            let n = space.count(state, side, r);
            if n > 0 {
                let label = match n {
                    1 => short_name(&role.name),
                    n => format!("{}×{n}", short_name(&role.name)),
                };
                let w = text_width(&label, chip) + 10.0;
                group = group
                    .add(
                        Rectangle::new()
                            .set("class", "person")
                            .set("x", slot_x)
                            .set("y", y + 4.0)
                            .set("width", w)
                            .set("height", ROW - 8.0)
                            .set("rx", 5)
                            .set("fill", hue(r, roles.len())),
                    )
                    .add(centred(slot_x + w / 2.0, y + ROW / 2.0, chip, &label));
            }
            slot_x += slots[r];
        }
        group
    };
    let boat_at = |side: Bank, y: f64| -> Rectangle {
        let x = match side {
            Bank::Near => river_x + 4.0,
            Bank::Far => river_x + river_width - 22.0,
        };
        Rectangle::new()
            .set("class", "boat")
            .set("x", x)
            .set("y", y + 8.0)
            .set("width", 18.0)
            .set("height", ROW - 16.0)
            .set("rx", 4)
            .set("fill", "#8b5a2b")
    };
    let mut rows = Group::new().set("class", "plan");
    for (k, &state) in states.iter().enumerate() {
        let y = top + k as f64 * ROW;
        let label = if k == 0 {
            "start".to_owned()
        } else {
            k.to_string()
        };
        let mut row = Group::new()
            .set("class", "row")
            .add(text(GAP, y + ROW / 2.0 + TEXT * 0.35, &label).set("fill", "#555"))
            .add(bank(state, Bank::Near, near_x, y))
            .add(bank(state, Bank::Far, far_x, y))
            .add(
                Line::new()
                    .set("x1", GAP)
                    .set("x2", far_x + bank_width)
                    .set("y1", y + ROW)
                    .set("y2", y + ROW)
                    .set("stroke", "white"),
            );
        if k == 0 {
            row = row.add(boat_at(space.boat(state), y));
        } else if let (Some(&trip), Some(&before)) = (trips.get(k - 1), states.get(k - 1)) {
            // The crossing that led here: an arrow across the river, the way the boat went.
            let (from, to) = match space.boat(before) {
                Bank::Near => (river_x + 8.0, river_x + river_width - 8.0),
                Bank::Far => (river_x + river_width - 8.0, river_x + 8.0),
            };
            let mid = y + ROW / 2.0;
            row = row.add(
                Group::new()
                    .set("class", "crossing")
                    .add(
                        Line::new()
                            .set("x1", from)
                            .set("x2", to)
                            .set("y1", mid + 6.0)
                            .set("y2", mid + 6.0)
                            .set("stroke", "#2b5d8a")
                            .set("stroke-width", 1.5)
                            .set("marker-end", "url(#crossing-head)"),
                    )
                    .add(centred(
                        river_x + river_width / 2.0,
                        mid - 3.0,
                        chip,
                        &trip_label(trip),
                    )),
            );
        }
        rows = rows.add(row);
    }
    Ok(document.add(rows))
}

/// The crossing arrows' head.
fn arrowhead() -> Definitions {
    Definitions::new().add(
        Marker::new()
            .set("id", "crossing-head")
            .set("viewBox", (0, 0, 10, 10))
            .set("refX", 9)
            .set("refY", 5)
            .set("markerWidth", 6)
            .set("markerHeight", 6)
            .set("orient", "auto")
            .add(
                Path::new()
                    .set("d", "M 0 0 L 10 5 L 0 10 z")
                    .set("fill", "#2b5d8a"),
            ),
    )
}
