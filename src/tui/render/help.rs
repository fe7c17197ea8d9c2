//! The help screen, generated from the keymap and the command table. Each
//! entry wraps under its own text (never cut at the box's edge); when one
//! column is too tall for the screen, the keys and the commands sit side by
//! side, balanced once for the whole help, so scrolling moves rows and
//! never reflows them.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::dim;
use crate::tui::command::HELP;
use crate::tui::keymap::Keymap;

/// The widest the box grows (wider lines read badly).
const MAX_WIDTH: u16 = 116;

/// `label` then `text` wrapped at word boundaries to `width` columns, the
/// lines after the first indented under the text.
pub fn entry(label: &str, pad: usize, text: &str, width: usize) -> Vec<Line<'static>> {
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
            Line::from(vec![Span::raw(lead), Span::raw(t)])
        })
        .collect()
}

/// The help's entries, each a few wrapped lines, for columns `width`
/// wide: the keys (bindings that do the same thing share one entry), then
/// the commands. Columns break between entries, never inside one.
pub fn entries(width: usize) -> Vec<Vec<Line<'static>>> {
    let keys = Keymap::default();
    let mut merged: Vec<(String, &str)> = Vec::new();
    for b in &keys.bindings {
        match merged.last_mut() {
            Some((l, h)) if *h == b.help => {
                l.push(' ');
                l.push_str(b.label);
            }
            _ => merged.push((b.label.to_string(), b.help)),
        }
    }
    let pad = merged.iter().map(|(l, _)| l.len()).max().unwrap_or(1);
    let mut out: Vec<Vec<Line<'static>>> = vec![vec![Line::styled("keys", dim())]];
    for (l, h) in &merged {
        out.push(entry(l, pad, h, width));
    }
    out.push(entry(
        "Esc",
        pad,
        "stop a long action (continue, run to trap, a lesson step, a step back or any re-execution); leave the command line, the / prompt or this help",
        width,
    ));
    out.push(entry(
        "mouse",
        pad,
        "click a pane to focus it, wheel scrolls it",
        width,
    ));
    out.push(vec![
        Line::raw(""),
        Line::styled("commands (after :)", dim()),
    ]);
    let pad = HELP
        .iter()
        .map(|(c, _)| c.len())
        .filter(|n| *n <= 22)
        .max()
        .unwrap_or(1);
    for (cmd, h) in HELP {
        if cmd.len() > pad {
            // A long form on a line of its own, its text under it.
            let mut e = vec![Line::raw(cmd.to_string())];
            e.extend(entry("", pad, h, width));
            out.push(e);
        } else {
            out.push(entry(cmd, pad, h, width));
        }
    }
    out
}

/// `entries` in `ncols` columns, balanced and broken between entries only:
/// the same columns whatever the scroll, so scrolling moves rows, never
/// reflows them.
fn columns(entries: Vec<Vec<Line<'static>>>, ncols: usize) -> Vec<Vec<Line<'static>>> {
    let total: usize = entries.iter().map(Vec::len).sum();
    let per = total.div_ceil(ncols.max(1));
    let mut cols: Vec<Vec<Line<'static>>> = vec![Vec::new()];
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

/// The box's width, the room inside for lines, the columns' width and the
/// columns, at `area`.
fn laid_out(area: Rect) -> (u16, usize, usize, Vec<Vec<Line<'static>>>) {
    let w = area.width.saturating_sub(2).min(MAX_WIDTH);
    let room = usize::from(area.height.saturating_sub(2));
    let one = entries(usize::from(w.saturating_sub(2)));
    let tall = one.iter().map(Vec::len).sum::<usize>();
    if tall <= room {
        return (
            w,
            room,
            usize::from(w.saturating_sub(2)),
            vec![one.concat()],
        );
    }
    let col_w = usize::from(w.saturating_sub(2)).saturating_sub(1) / 2;
    (w, room, col_w, columns(entries(col_w), 2))
}

/// The most the help scrolls at `area` (rows).
pub fn max_scroll(area: Rect) -> usize {
    let (_, room, _, cols) = laid_out(area);
    let height = cols.iter().map(Vec::len).max().unwrap_or(0);
    height.saturating_sub(room.saturating_sub(1))
}

/// How many entries the help has.
pub fn entry_count() -> usize {
    entries(80).len()
}

/// The help, `scroll` rows scrolled past; a last line counts what is
/// below.
pub fn render(f: &mut Frame<'_>, area: Rect, scroll: usize) {
    let (w, room, col_w, cols) = laid_out(area);
    let height = cols.iter().map(Vec::len).max().unwrap_or(0);
    let scroll = scroll.min(max_scroll(area));
    let below = height.saturating_sub(scroll + room);
    let view = if below > 0 {
        room.saturating_sub(1)
    } else {
        room
    };
    let mut shown: Vec<Vec<Line<'static>>> = cols
        .into_iter()
        .map(|c| c.into_iter().skip(scroll).take(view).collect())
        .collect();
    if below > 0
        && let Some(c) = shown.last_mut()
    {
        while c.len() < view {
            c.push(Line::raw(""));
        }
        c.push(Line::styled(
            format!("… {below} more lines: Down scrolls (or a taller terminal)"),
            dim(),
        ));
    }
    let rows = shown.iter().map(Vec::len).max().unwrap_or(0);
    let h = (rows as u16 + 2).min(area.height);
    let [_, mid, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(h),
        Constraint::Fill(1),
    ])
    .areas(area);
    let [_, r, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(w),
        Constraint::Fill(1),
    ])
    .areas(mid);
    f.render_widget(Clear, r);
    let block =
        Block::bordered().title(" trapscope keys · Up/Down scroll · Esc or any other key closes ");
    let inner = block.inner(r);
    f.render_widget(block, r);
    let places =
        Layout::horizontal(vec![Constraint::Length(col_w as u16 + 1); shown.len()]).split(inner);
    for (lines, place) in shown.into_iter().zip(places.iter()) {
        f.render_widget(Paragraph::new(lines), *place);
    }
}
