//! Pictures of answers and explorations: `--svg FILE` writes an SVG document built with the
//! `svg` crate, `--png FILE` the same document rasterised by `resvg`.
//!
//! Each domain draws its answer once, in a module of its own here, through
//! [`Domain::picture`](crate::driver::Domain::picture); `explore` draws its layer counts as a
//! bar chart ([`chart`]). [`Pictures`] holds the files asked for: they are opened when the
//! command starts, so that a path that cannot be written fails before any search, and written
//! when there is something to draw.

pub mod board;
pub mod chart;
pub mod cube;
pub mod perm;
pub mod river;
pub mod tiles;

use std::fs::{self, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use svg::node::element::{Group, Rectangle, Text};
use svg::Document;

pub use chart::Scale;

use crate::common::{plain, to_stderr, SearchArgs};

/// A picture's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

/// One picture file asked for.
#[derive(Debug)]
struct Target {
    path: PathBuf,
    format: Format,
    /// Whether opening it created it (it did not exist before the command).
    created: bool,
    /// Whether the picture was written to it.
    written: bool,
}

/// The picture files a command was asked for (`--svg`, `--png`).
///
/// Each is opened for writing when the command starts ([`Pictures::open`]) without being
/// truncated: a file that existed keeps its content until a picture replaces it, and one that
/// this created but never wrote (no answer to draw, or an error) is removed again when the value
/// is dropped.
#[derive(Debug)]
pub struct Pictures {
    targets: Vec<Target>,
}

/// What a picture is of, for the flags it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A solving command's answer: `--scale` does not apply.
    Answer,
    /// `explore`'s layer counts, drawn as a chart on `--scale`.
    Chart,
}

impl Pictures {
    /// No picture at all: for a process that does not report (the others of a distributed
    /// exploration, whose leader draws the chart).
    pub fn none() -> Pictures {
        Pictures {
            targets: Vec::new(),
        }
    }

    /// The pictures `search` asks for, each file opened (or created) for writing now: an error
    /// names a path that cannot be written.
    pub fn open(search: &SearchArgs, subject: Subject) -> anyhow::Result<Pictures> {
        let any = search.svg.is_some() || search.png.is_some();
        match (search.scale, subject) {
            (Some(_), Subject::Answer) => {
                bail!("--scale sets the vertical scale of explore's chart; it does not apply here")
            }
            (Some(_), Subject::Chart) if !any => {
                bail!("--scale sets the scale of the chart; give --svg FILE or --png FILE for one")
            }
            _ => {}
        }
        if let (Some(svg), Some(png)) = (&search.svg, &search.png) {
            if svg == png {
                bail!(
                    "--svg and --png name the same file, {}; give each its own",
                    shown(svg)
                );
            }
        }
        let mut pictures = Pictures {
            targets: Vec::new(),
        };
        for (path, format) in [(&search.svg, Format::Svg), (&search.png, Format::Png)] {
            if let Some(path) = path {
                let created = open_for_writing(path)?;
                pictures.targets.push(Target {
                    path: path.clone(),
                    format,
                    created,
                    written: false,
                });
            }
        }
        Ok(pictures)
    }

    /// Whether no picture was asked for.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Draws the picture (with `draw`, called only if one was asked for) and writes it to
    /// every file asked for. `draw` gives why the picture cannot be drawn, when it cannot.
    pub fn write(&mut self, draw: impl FnOnce() -> Result<Document, String>) -> anyhow::Result<()> {
        if self.is_empty() {
            return Ok(());
        }
        let document = draw().map_err(|why| anyhow!("cannot draw the picture: {why}"))?;
        let text = document.to_string();
        for target in &mut self.targets {
            let bytes = match target.format {
                Format::Svg => text.as_bytes().to_vec(),
                Format::Png => png(&text)?,
            };
            fs::write(&target.path, bytes).map_err(|e| {
                anyhow!(
                    "cannot write the picture to {}: {}",
                    shown(&target.path),
                    plain(&e)
                )
            })?;
            target.written = true;
        }
        Ok(())
    }

    /// Says on stderr that no picture is written, and why (there is no answer to draw).
    pub fn skip(&self, why: &str) {
        for target in &self.targets {
            to_stderr(format_args!(
                "warning: no picture written to {}: {why}",
                shown(&target.path)
            ));
        }
    }
}

impl Drop for Pictures {
    fn drop(&mut self) {
        for target in &self.targets {
            if target.created && !target.written {
                // Nothing was drawn into the file this command created: it goes again. A
                // failure leaves an empty file, which says as much.
                let _ = fs::remove_file(&target.path);
            }
        }
    }
}

/// A path as messages show it.
fn shown(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Opens `path` for writing, creating it if it does not exist, without truncating it; returns
/// whether it was created.
fn open_for_writing(path: &Path) -> anyhow::Result<bool> {
    let fail = |e: io::Error| anyhow!("cannot write a picture to {}: {}", shown(path), plain(&e));
    match OpenOptions::new().write(true).create_new(true).open(path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => OpenOptions::new()
            .write(true)
            .open(path)
            .map(|_| false)
            .map_err(fail),
        Err(e) => Err(fail(e)),
    }
}

/// The most pixels a PNG holds (4 bytes each while it is drawn): a larger picture is drawn
/// smaller to fit.
const MAX_PIXELS: f32 = 16e6;

/// The SVG document `svg` rasterised into a PNG image, its text set in the system's fonts.
fn png(svg: &str) -> anyhow::Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    if let Some(family) = sans_serif(fonts) {
        fonts.set_sans_serif_family(family);
    }
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| anyhow!("internal error: the picture does not read back as SVG: {e}"))?;
    let size = tree.size();
    let scale = (MAX_PIXELS / (size.width() * size.height()))
        .sqrt()
        .min(1.0);
    let width = (size.width() * scale).ceil().max(1.0) as u32;
    let height = (size.height() * scale).ceil().max(1.0) as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| anyhow!("internal error: no {width} x {height} image can be drawn"))?;
    let transform = tiny_skia::Transform::from_scale(scale, scale);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| anyhow!("internal error: the image cannot be encoded as PNG: {e}"))
}

/// The family to set `sans-serif` text in: the first of some common sans-serif families the
/// system has (fontdb's default, Arial, is often missing on Linux), else any sans-serif one.
fn sans_serif(fonts: &resvg::usvg::fontdb::Database) -> Option<String> {
    const PREFERRED: [&str; 6] = [
        "DejaVu Sans",
        "Liberation Sans",
        "Noto Sans",
        "Arial",
        "Helvetica",
        "FreeSans",
    ];
    let families: Vec<&str> = fonts
        .faces()
        .flat_map(|face| face.families.iter().map(|(name, _)| name.as_str()))
        .collect();
    PREFERRED
        .iter()
        .find(|want| families.contains(want))
        .map(|s| (*s).to_owned())
        .or_else(|| {
            let sans = |name: &&&str| name.contains("Sans") && !name.contains("Mono");
            families.iter().find(sans).map(|s| (*s).to_owned())
        })
}

/// The size of the text of labels, in pixels.
pub const TEXT: f64 = 12.0;

/// An empty picture of `width` x `height` pixels on a white ground, its text sans-serif.
pub fn canvas(width: f64, height: f64) -> Document {
    let (width, height) = (width.ceil(), height.ceil());
    Document::new()
        .set("width", width)
        .set("height", height)
        .set("viewBox", (0, 0, width, height))
        .set("font-family", "sans-serif")
        .set("font-size", TEXT)
        .add(
            Rectangle::new()
                .set("width", width)
                .set("height", height)
                .set("fill", "white"),
        )
}

/// `text` as XML may hold it: a character XML 1.0 forbids (most control characters, which a
/// puzzle file's names may hold) becomes `�`.
pub fn xml_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => ' ',
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// A line of text whose left end is at `x`, its baseline at `y`.
pub fn text(x: f64, y: f64, content: &str) -> Text {
    Text::new(xml_text(content)).set("x", x).set("y", y)
}

/// A line of text centred on (`x`, `y`) in a font of `size` pixels.
pub fn centred(x: f64, y: f64, size: f64, content: &str) -> Text {
    // The baseline a third of the size below the centre puts the body of the letters on it.
    text(x, y + size * 0.35, content)
        .set("text-anchor", "middle")
        .set("font-size", size)
}

/// About how wide `content` is in a sans-serif font of `size` pixels: the layout makes room
/// for labels with it.
pub fn text_width(content: &str, size: f64) -> f64 {
    content.chars().count() as f64 * size * 0.62
}

/// The `i`-th of `n` colours told apart by their hue (for roles, or a puzzle's colours).
pub fn hue(i: usize, n: usize) -> String {
    let hue = (i as f64 * 360.0 / n.max(1) as f64 + 200.0) % 360.0;
    let lightness = if i.is_multiple_of(2) { 55 } else { 70 };
    format!("hsl({hue:.0}, 65%, {lightness}%)")
}

/// The most characters of a title line: a long solution is cut there, its moves being in the
/// answer.
const MOST_TITLE: usize = 120;

/// `line` cut to [`MOST_TITLE`] characters, with `...` where it was cut.
pub fn shorten(line: &str) -> String {
    if line.chars().count() <= MOST_TITLE {
        return line.to_owned();
    }
    let kept: String = line.chars().take(MOST_TITLE - 3).collect();
    kept + "..."
}

/// Panels laid out in rows of at most `per_row`, each under its title: a strip of states.
pub struct Strip {
    panels: Vec<(String, Group)>,
    width: f64,
    height: f64,
}

/// Pixels between panels, and around them.
pub const GAP: f64 = 16.0;

/// The most panels a strip draws: `--show` on a long answer is refused past it.
pub const MAX_PANELS: usize = 200;

impl Strip {
    /// A strip of panels of `width` x `height` pixels each.
    pub fn new(width: f64, height: f64) -> Strip {
        Strip {
            panels: Vec::new(),
            width,
            height,
        }
    }

    /// Adds a panel (drawn from its own top left corner) with its title above it.
    pub fn push(&mut self, title: String, panel: Group) {
        self.panels.push((title, panel));
    }

    /// The picture: a title line, then the panels, at most `per_row` a row.
    pub fn document(self, title: &str, per_row: usize) -> Document {
        let per_row = per_row.clamp(1, self.panels.len().max(1));
        let rows = self.panels.len().div_ceil(per_row).max(1);
        let title_width = text_width(title, TEXT + 2.0) + 2.0 * GAP;
        let cell_width = self
            .panels
            .iter()
            .map(|(t, _)| text_width(t, TEXT))
            .fold(self.width, f64::max);
        let cell_height = self.height + TEXT + 8.0;
        let width = (GAP + per_row as f64 * (cell_width + GAP)).max(title_width);
        let top = GAP + TEXT + 10.0;
        let height = top + rows as f64 * (cell_height + GAP);
        let mut document = canvas(width, height).add(
            text(GAP, GAP + TEXT, title)
                .set("font-size", TEXT + 2.0)
                .set("font-weight", "bold"),
        );
        for (i, (label, panel)) in self.panels.into_iter().enumerate() {
            let x = GAP + (i % per_row) as f64 * (cell_width + GAP);
            let y = top + (i / per_row) as f64 * (cell_height + GAP);
            document = document.add(
                Group::new()
                    .set("class", "panel")
                    .set("transform", format!("translate({x}, {y})"))
                    .add(text(0.0, TEXT, &label))
                    .add(panel.set("transform", format!("translate(0, {})", TEXT + 8.0))),
            );
        }
        document
    }
}

/// Refuses a strip of more than [`MAX_PANELS`] panels, in the words of `--show`.
pub fn check_panels(panels: usize, what: &str) -> Result<(), String> {
    if panels > MAX_PANELS {
        return Err(format!(
            "--show would draw {panels} {what}, more than {MAX_PANELS}; drop --show for the start and the end"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_xml_forbids_is_replaced() {
        assert_eq!(xml_text("boy\u{1}girl\tx"), "boy\u{fffd}girl x");
        assert_eq!(xml_text("狼 & <b>"), "狼 & <b>");
    }

    #[test]
    fn a_strip_lays_its_panels_in_rows() {
        let mut strip = Strip::new(40.0, 30.0);
        for i in 0..5 {
            strip.push(format!("p{i}"), Group::new());
        }
        let text = strip.document("five", 2).to_string();
        assert_eq!(text.matches("class=\"panel\"").count(), 5);
        // Three rows of 30 + 20 pixels and their gaps, under the title.
        let height = GAP + TEXT + 10.0 + 3.0 * (30.0 + TEXT + 8.0 + GAP);
        assert!(
            text.contains(&format!("height=\"{}\"", height.ceil())),
            "{text}"
        );
    }
}
