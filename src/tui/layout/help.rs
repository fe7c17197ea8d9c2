//! The help box laid out: its entries wrapped to the columns' width, the
//! columns, and how far it scrolls. Each entry wraps under its own text
//! (never cut at the box's edge); when one column is too tall for the
//! screen, the entries sit in two columns, balanced once for the whole
//! help, so scrolling moves rows and never reflows them. The words are the
//! keymap's (`keymap::help_sections`); `render/help.rs` draws the box.

use ratatui::layout::{Constraint, Layout, Rect};

use crate::tui::keymap::{self, HelpItem};

/// The widest the box grows in one column (wider lines read badly).
const MAX_WIDTH: u16 = 116;
/// The widest a column grows when there are two: the box then takes up to
/// two of them, its borders and the gap between them.
const MAX_COLUMN: u16 = 72;

/// Longer command forms than this go on a line of their own.
const COMMAND_PAD: usize = 22;

/// A row of the help: a section's heading or a line of text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    Heading(String),
    Text(String),
}

/// `label` then `text` wrapped at word boundaries to `width` columns, the
/// lines after the first indented under the text.
pub fn entry(label: &str, pad: usize, text: &str, width: usize) -> Vec<Row> {
    let head = format!("{label:<pad$}  ");
    let indent = head.chars().count();
    let room = width.saturating_sub(indent).max(10);
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > room {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    out.push(cur);
    out.into_iter()
        .enumerate()
        .map(|(i, t)| {
            let lead = if i == 0 {
                head.clone()
            } else {
                " ".repeat(indent)
            };
            Row::Text(lead + &t)
        })
        .collect()
}

/// The help's entries, each a few wrapped rows, for columns `width` wide:
/// each section of the keymap's help under its heading (which comes with
/// the section's first entry), keys in one column of labels, commands in
/// another. Columns break between entries, never inside one.
pub fn entries(width: usize) -> Vec<Vec<Row>> {
    let mut out: Vec<Vec<Row>> = Vec::new();
    for (i, section) in keymap::help_sections().into_iter().enumerate() {
        let mut head = Vec::new();
        if i > 0 {
            head.push(Row::Text(String::new()));
        }
        head.push(Row::Heading(section.heading.to_string()));
        let pad = match section.commands {
            false => section
                .items
                .iter()
                .map(|it| it.label.len())
                .max()
                .unwrap_or(1),
            true => section
                .items
                .iter()
                .map(|it| it.label.len())
                .filter(|n| *n <= COMMAND_PAD)
                .max()
                .unwrap_or(1),
        };
        for HelpItem { label, text } in &section.items {
            // The heading goes with the first entry (a column never ends
            // on a heading).
            let mut e = std::mem::take(&mut head);
            if label.len() > pad {
                // A long form on a line of its own, its text under it.
                e.push(Row::Text(label.clone()));
                e.extend(entry("", pad, text, width));
            } else {
                e.extend(entry(label, pad, text, width));
            }
            out.push(e);
        }
    }
    out
}

/// `entries` in `ncols` columns, balanced and broken between entries only:
/// the same columns whatever the scroll, so scrolling moves rows, never
/// reflows them.
fn columns(entries: Vec<Vec<Row>>, ncols: usize) -> Vec<Vec<Row>> {
    let total: usize = entries.iter().map(Vec::len).sum();
    let per = total.div_ceil(ncols.max(1));
    let mut cols: Vec<Vec<Row>> = vec![Vec::new()];
    for e in entries {
        let full = cols
            .last()
            .is_some_and(|c| !c.is_empty() && c.len() + e.len() > per);
        if full && cols.len() < ncols {
            cols.push(Vec::new());
        }
        if let Some(c) = cols.last_mut() {
            c.extend(e);
        }
    }
    cols
}

/// The help laid out at a screen.
pub struct Help {
    /// The box's width.
    pub width: u16,
    /// The rows inside the box.
    pub room: usize,
    /// Each column's width.
    pub col_w: usize,
    pub cols: Vec<Vec<Row>>,
}

/// The help at `area`: in one column if it fits, else two, each as wide
/// as the screen allows up to `MAX_COLUMN`.
pub fn laid_out(area: Rect) -> Help {
    let w = area.width.saturating_sub(2).min(MAX_WIDTH);
    let room = usize::from(area.height.saturating_sub(2));
    let one = entries(usize::from(w.saturating_sub(2)));
    let tall = one.iter().map(Vec::len).sum::<usize>();
    if tall <= room {
        return Help {
            width: w,
            room,
            col_w: usize::from(w.saturating_sub(2)),
            cols: vec![one.concat()],
        };
    }
    let w = area.width.saturating_sub(2).min(2 * MAX_COLUMN + 3);
    let col_w = usize::from(w.saturating_sub(2)).saturating_sub(1) / 2;
    Help {
        width: w,
        room,
        col_w,
        cols: columns(entries(col_w), 2),
    }
}

/// The most the help scrolls at `area` (rows).
pub fn max_scroll(area: Rect) -> usize {
    let h = laid_out(area);
    let height = h.cols.iter().map(Vec::len).max().unwrap_or(0);
    height.saturating_sub(h.room.saturating_sub(1))
}

/// The box, `width` wide and tall enough for `rows` rows, in the middle of
/// `area`.
pub fn frame(area: Rect, width: u16, rows: usize) -> Rect {
    let h = (rows as u16 + 2).min(area.height);
    let [_, mid, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(h),
        Constraint::Fill(1),
    ])
    .areas(area);
    let [_, r, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(width),
        Constraint::Fill(1),
    ])
    .areas(mid);
    r
}

/// The columns' places inside the box.
pub fn column_places(inner: Rect, col_w: usize, n: usize) -> Vec<Rect> {
    Layout::horizontal(vec![Constraint::Length(col_w as u16 + 1); n])
        .split(inner)
        .to_vec()
}
