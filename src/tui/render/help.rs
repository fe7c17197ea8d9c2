//! The help screen drawn: the box in the middle of the screen, its
//! headings dimmed, the rows `scroll` rows on and a last line counting
//! those below. What it says is the keymap's table (`keymap.rs`), where it
//! goes `layout/help.rs`'s.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::style::dim;
pub use crate::tui::layout::help::max_scroll;
use crate::tui::layout::help::{self as place, Row};

/// A laid-out row as a line: headings dimmed.
fn line(r: Row) -> Line<'static> {
    match r {
        Row::Heading(h) => Line::styled(h, dim()),
        Row::Text(t) => Line::from(vec![Span::raw(t)]),
    }
}

/// The help's entries, each a few wrapped lines, for columns `width`
/// wide (`layout::help::entries`).
pub fn entries(width: usize) -> Vec<Vec<Line<'static>>> {
    place::entries(width)
        .into_iter()
        .map(|e| e.into_iter().map(line).collect())
        .collect()
}

/// The help, `scroll` rows scrolled past; a last line counts what is
/// below.
pub fn render(f: &mut Frame<'_>, area: Rect, scroll: usize) {
    let help = place::laid_out(area);
    let room = help.room;
    let height = help.cols.iter().map(Vec::len).max().unwrap_or(0);
    let scroll = scroll.min(max_scroll(area));
    let below = height.saturating_sub(scroll + room);
    let view = if below > 0 {
        room.saturating_sub(1)
    } else {
        room
    };
    let mut shown: Vec<Vec<Line<'static>>> = help
        .cols
        .into_iter()
        .map(|c| c.into_iter().skip(scroll).take(view).map(line).collect())
        .collect();
    if below > 0
        && let Some(c) = shown.last_mut()
    {
        while c.len() < view {
            c.push(Line::raw(""));
        }
        // The note sits in the last column: said in full where it fits,
        // shorter where the column is narrow (a compact terminal), so that
        // it is never cut at the border.
        let full = format!("… {below} more lines: Down scrolls (or a taller terminal)");
        let note = if full.chars().count() <= help.col_w {
            full
        } else {
            format!("… {below} more lines: Down scrolls")
        };
        c.push(Line::styled(note, dim()));
    }
    let rows = shown.iter().map(Vec::len).max().unwrap_or(0);
    let r = place::frame(area, help.width, rows);
    f.render_widget(Clear, r);
    let block =
        Block::bordered().title(" trapscope keys · Up/Down scroll · Esc or any other key closes ");
    let inner = block.inner(r);
    f.render_widget(block, r);
    let places = place::column_places(inner, help.col_w, shown.len());
    for (lines, place) in shown.into_iter().zip(places.iter()) {
        f.render_widget(Paragraph::new(lines), *place);
    }
}
