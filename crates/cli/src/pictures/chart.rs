//! `explore ... --svg FILE`: a bar chart of the states at each distance, a bar a layer.

use svg::node::element::{Group, Line, Rectangle, Title};
use svg::Document;

use super::{canvas, centred, text, GAP, TEXT};
use crate::common::count;

/// The chart's vertical scale: `log`, heights in proportion to the logarithm of the count
/// (every layer shows, from the start's single state to the widest), or `linear`, in
/// proportion to the count.
// The variants have no doc comments of their own: clap would show them as a list, which
// turns all of `explore`'s help into its long layout; `--scale`'s help says what each does.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    #[default]
    Log,
    Linear,
}

/// The height of the bars' area, in pixels.
const HEIGHT: f64 = 240.0;
/// Room on the left for the scale's labels.
const LEFT: f64 = 86.0;

/// The most bars drawn: past it, a bar stands for the sum of several distances in a row (a
/// board's exploration may run a million layers deep).
const MAX_BARS: usize = 1_000;

/// The chart of `layers` (the states at each distance from the start) on `scale`; `partial`:
/// the last layer was stopped part-way (drawn lighter). `title` says what was explored.
pub fn draw(title: &str, layers: &[u64], partial: bool, scale: Scale) -> Document {
    let per_bar = layers.len().div_ceil(MAX_BARS).max(1);
    let sums: Vec<u64>;
    let layers = if per_bar == 1 {
        layers
    } else {
        sums = (layers.chunks(per_bar))
            .map(|chunk| chunk.iter().fold(0u64, |a, &b| a.saturating_add(b)))
            .collect();
        &sums
    };
    let n = layers.len().max(1);
    // Narrower bars for many layers, but never so narrow that the chart stops being one.
    let bar = (640.0 / n as f64).clamp(4.0, 28.0);
    // A distance under every bar if there is room, else under every fifth or tenth or ...
    let label_every = match bar >= 20.0 {
        true => 1,
        false => ((40.0 / bar).ceil() as usize).next_multiple_of(5),
    };
    let most = layers.iter().copied().max().unwrap_or(0).max(1) as f64;
    let (ticks, top) = axis(most, scale);
    let height_of = |states: u64| -> f64 {
        let value = match scale {
            Scale::Linear => states as f64,
            // A count of 1 stands half a decade above the floor, so that it shows.
            Scale::Log if states == 0 => return 0.0,
            Scale::Log => (states as f64).log10() + 0.5,
        };
        HEIGHT * value / top
    };
    let plot_top = GAP + TEXT + 44.0;
    let base = plot_top + HEIGHT;
    let width = LEFT + n as f64 * bar + GAP;
    let height = base + TEXT * 3.0 + GAP;
    let room = super::text_width(title, TEXT + 2.0) + 2.0 * GAP;
    let mut document = canvas(width.max(room), height).add(
        text(GAP, GAP + TEXT, title)
            .set("font-size", TEXT + 2.0)
            .set("font-weight", "bold"),
    );
    let mut grid = Group::new().set("class", "scale");
    for (value, label) in ticks {
        let y = base - HEIGHT * value / top;
        grid = grid
            .add(
                Line::new()
                    .set("x1", LEFT - 4.0)
                    .set("x2", LEFT + n as f64 * bar)
                    .set("y1", y)
                    .set("y2", y)
                    .set("stroke", "#d8d8d8"),
            )
            .add(
                text(LEFT - 8.0, y + TEXT * 0.35, &label)
                    .set("text-anchor", "end")
                    .set("fill", "#555"),
            );
    }
    document = document.add(grid);
    let mut bars = Group::new().set("class", "bars");
    let last = layers.len().saturating_sub(1);
    for (i, &states) in layers.iter().enumerate() {
        let h = height_of(states);
        let x = LEFT + i as f64 * bar;
        let lighter = partial && i == last;
        let note = if lighter { " (partial)" } else { "" };
        let depth = i * per_bar;
        let distances = match per_bar {
            1 => format!("distance {depth}"),
            k => format!("distances {depth}-{}", depth + k - 1),
        };
        bars = bars.add(
            Rectangle::new()
                .set("class", "bar")
                .set("x", x + 1.0)
                .set("y", base - h)
                .set("width", bar - 2.0)
                .set("height", h)
                .set("fill", if lighter { "#a9c4e8" } else { "#3b73c4" })
                .add(Title::new(format!(
                    "{distances}: {} states{note}",
                    count(states)
                ))),
        );
        if i.is_multiple_of(label_every) {
            bars = bars.add(centred(
                x + bar / 2.0,
                base + TEXT,
                TEXT * 0.9,
                &depth.to_string(),
            ));
        }
    }
    document = document
        .add(bars)
        .add(
            Line::new()
                .set("x1", LEFT)
                .set("x2", LEFT + n as f64 * bar)
                .set("y1", base)
                .set("y2", base)
                .set("stroke", "black"),
        )
        .add(centred(
            LEFT + n as f64 * bar / 2.0,
            base + TEXT * 2.4,
            TEXT,
            &match per_bar {
                1 => "distance from the start (moves)".to_owned(),
                k => format!("distance from the start (moves; a bar per {k} distances)"),
            },
        ));
    let scale_name = match scale {
        Scale::Log => "states (log scale)",
        Scale::Linear => "states",
    };
    document.add(text(GAP, plot_top - 20.0, scale_name).set("fill", "#555"))
}

/// The scale's ticks (each a value on the bars' scale and its label) and the value at the top
/// of the bars' area, for a widest layer of `most` states.
fn axis(most: f64, scale: Scale) -> (Vec<(f64, String)>, f64) {
    match scale {
        Scale::Log => {
            let decades = most.log10().ceil().max(1.0) as u32;
            // At most about eight labelled decades: 1, 100, 10,000, ... past that.
            let step = decades.div_ceil(8).max(1);
            let ticks = (0..=decades)
                .step_by(step as usize)
                .map(|k| (f64::from(k) + 0.5, power_of_ten(k)))
                .collect();
            (ticks, f64::from(decades) + 0.5)
        }
        Scale::Linear => {
            // A step of 1, 2 or 5 times a power of ten, for four to ten ticks.
            let mut step = 10f64.powf((most / 10.0).log10().floor().max(0.0));
            for factor in [2.0, 2.5, 2.0] {
                if most / step <= 10.0 {
                    break;
                }
                step *= factor;
            }
            while most / step > 10.0 {
                step *= 10.0;
            }
            let top = (most / step).ceil() * step;
            let ticks = (0..=(top / step).round() as u64)
                .map(|k| {
                    let value = k as f64 * step;
                    (value, count(value as u64))
                })
                .collect();
            (ticks, top)
        }
    }
}

/// 10 to the `k`, written out while it is short (`10,000`), else `1e12`.
fn power_of_ten(k: u32) -> String {
    match k {
        0..=6 => count(10u64.pow(k)),
        _ => format!("1e{k}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_scale_has_a_tick_per_decade() {
        let (ticks, top) = axis(24_047.0, Scale::Log);
        let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["1", "10", "100", "1,000", "10,000", "100,000"]);
        assert_eq!(top, 5.5);
        let (ticks, _) = axis(1e19, Scale::Log);
        assert!(ticks.len() <= 10, "{ticks:?}");
    }

    #[test]
    fn the_linear_scale_steps_in_round_numbers() {
        let (ticks, top) = axis(44.0, Scale::Linear);
        let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(
            labels,
            ["0", "5", "10", "15", "20", "25", "30", "35", "40", "45"]
        );
        assert_eq!(top, 45.0);
        let (ticks, top) = axis(24_047.0, Scale::Linear);
        assert!(top >= 24_047.0 && ticks.len() <= 11, "{ticks:?} {top}");
    }

    #[test]
    fn a_bar_a_layer_the_partial_one_lighter() {
        let text = draw("t", &[1, 2, 3], true, Scale::Linear).to_string();
        assert_eq!(text.matches("class=\"bar\"").count(), 3);
        assert_eq!(text.matches("#a9c4e8").count(), 1);
    }

    #[test]
    fn a_deep_exploration_sums_distances_into_bars() {
        let layers = vec![1u64; 2_500];
        let text = draw("t", &layers, false, Scale::Log).to_string();
        assert_eq!(text.matches("class=\"bar\"").count(), 834);
        assert!(text.contains("distances 0-2: 3 states"), "{text}");
    }
}
