//! Text a pane is too small for: a pane's lines are drawn from its scroll
//! offsets (`state::PaneViews`), wrapped at words where the pane's text is
//! prose, and the bottom border says where more is and which keys reach it,
//! so no line or column is cut without a way to read it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::style::dim;
pub use crate::tui::layout::wrap::wrap_lines;
use crate::tui::state::{AppState, Pane};

/// How a pane's lines meet its right edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Lines stay whole; Left/Right scroll the columns.
    Pan,
    /// Lines wrap at words (prose).
    Wrap,
}

/// Draws `lines` in `block` over `area` at the pane's offsets. `rows` says
/// whether the fitting scrolls the rows too (false where the pane scrolls
/// its rows itself, like the events and the memory view).
#[allow(clippy::too_many_arguments)]
pub fn show<'a>(
    f: &mut Frame<'_>,
    area: Rect,
    s: &AppState,
    pane: Pane,
    block: Block<'a>,
    lines: Vec<Line<'a>>,
    flow: Flow,
    rows: bool,
) {
    let inner = block.inner(area);
    let lines = match flow {
        Flow::Wrap => wrap_lines(lines, usize::from(inner.width)),
        Flow::Pan => lines,
    };
    let widest = lines.iter().map(Line::width).max().unwrap_or(0);
    let max_x = match flow {
        Flow::Pan => widest.saturating_sub(usize::from(inner.width)),
        Flow::Wrap => 0,
    };
    let max_y = if rows {
        lines.len().saturating_sub(usize::from(inner.height))
    } else {
        0
    };
    let clip = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
    s.views.note_extent(pane, clip(max_x), clip(max_y));
    let (x, y) = s.views.offset(pane);
    let block = match hint(s.focus == pane, x, clip(max_x), y, clip(max_y)) {
        Some(h) if inner.width > 0 && inner.height > 0 => {
            block.title_bottom(Line::styled(h, dim()).right_aligned())
        }
        _ => block,
    };
    f.render_widget(Paragraph::new(lines).scroll((y, x)).block(block), area);
}

/// A row whose gutter (a heat figure, marks, a line number or address)
/// stays while Left/Right scroll the text after it.
pub struct Row<'a> {
    pub gutter: Vec<Span<'a>>,
    pub body: Vec<Span<'a>>,
}

fn spans_width(v: &[Span<'_>]) -> usize {
    v.iter().map(|s| s.content.chars().count()).sum()
}

/// `spans` with their first `n` columns dropped, styles kept.
fn skip_columns(spans: Vec<Span<'_>>, n: usize) -> Vec<Span<'static>> {
    let mut left = n;
    let mut out = Vec::new();
    for sp in spans {
        let len = sp.content.chars().count();
        if left >= len {
            left -= len;
            continue;
        }
        let rest: String = sp.content.chars().skip(left).collect();
        left = 0;
        out.push(Span::styled(rest, sp.style));
    }
    out
}

/// Draws `rows` under `head` (lines that do not scroll) in `block`: the
/// pane scrolls its rows itself (the source and disassembly), and its
/// columns past the right edge from its offset, the bottom border saying
/// so as `show` does.
pub fn show_rows<'a>(
    f: &mut Frame<'_>,
    area: Rect,
    s: &AppState,
    pane: Pane,
    block: Block<'a>,
    head: Vec<Line<'a>>,
    rows: Vec<Row<'a>>,
) {
    let inner = block.inner(area);
    let max_x = rows
        .iter()
        .map(|r| {
            let room = usize::from(inner.width).saturating_sub(spans_width(&r.gutter));
            spans_width(&r.body).saturating_sub(room)
        })
        .max()
        .unwrap_or(0);
    let clip = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
    s.views.note_extent(pane, clip(max_x), 0);
    let (x, _) = s.views.offset(pane);
    let block = match hint(s.focus == pane, x, clip(max_x), 0, 0) {
        Some(h) if inner.width > 0 && inner.height > 0 => {
            block.title_bottom(Line::styled(h, dim()).right_aligned())
        }
        _ => block,
    };
    let mut lines = head;
    for r in rows {
        let mut spans = r.gutter;
        spans.extend(skip_columns(r.body, usize::from(x)));
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// A title of `parts` for a border `width` wide (`marked`: a focus or
/// lesson glyph goes before it): the leading parts that fit, and the rest
/// as lines under the border, wrapped to the pane, so that no part is cut.
pub fn title_parts(parts: &[String], width: u16, marked: bool) -> (String, Vec<Line<'static>>) {
    let room = usize::from(width)
        .saturating_sub(2)
        .saturating_sub(usize::from(marked));
    let parts: Vec<&String> = parts.iter().filter(|p| !p.is_empty()).collect();
    let mut k = parts.len();
    let title = |k: usize| {
        let t: Vec<&str> = parts[..k].iter().map(|p| p.as_str()).collect();
        format!(" {} ", t.join("  "))
    };
    while k > 0 && title(k).chars().count() > room {
        k -= 1;
    }
    let rest: Vec<&str> = parts[k..].iter().map(|p| p.as_str()).collect();
    let head = if rest.is_empty() {
        Vec::new()
    } else {
        let w = usize::from(width.saturating_sub(2));
        wrap_lines(vec![Line::styled(rest.join("  "), dim())], w)
    };
    (title(k), head)
}

/// The bottom border's note: which way more text is, and the keys.
pub fn hint(focused: bool, x: u16, max_x: u16, y: u16, max_y: u16) -> Option<String> {
    let mut ways = String::new();
    if x > 0 {
        ways.push('←');
    }
    if x < max_x {
        ways.push('→');
    }
    if y > 0 {
        ways.push('↑');
    }
    if y < max_y {
        ways.push_str(&format!("↓{}", max_y - y));
    }
    if ways.is_empty() {
        return None;
    }
    let keys = if focused {
        "arrow keys"
    } else {
        "S-Tab, arrows"
    };
    Some(format!(" more {ways} ({keys}) "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_names_each_way_and_nothing_when_all_shows() {
        assert_eq!(hint(true, 0, 0, 0, 0), None);
        assert_eq!(
            hint(true, 0, 5, 0, 0).as_deref(),
            Some(" more → (arrow keys) ")
        );
        assert_eq!(
            hint(false, 5, 5, 0, 3).as_deref(),
            Some(" more ←↓3 (S-Tab, arrows) ")
        );
    }
}
