//! What every pane draws with: the dim and hot styles and a pane's border,
//! which marks the focused and the highlighted pane. A leaf of `render/`:
//! the panes use it and `mod.rs` lays them out.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType};

use crate::tui::state::{AppState, Pane};

/// A pane's frame: focused panes and the one a lesson points at stand out,
/// by a glyph before the title as well as the border's colour (a text
/// capture or a washed-out projector keeps the glyph).
pub(crate) fn pane_block<'a>(s: &AppState, pane: Pane, title: impl Into<Line<'a>>) -> Block<'a> {
    let mut title: Line<'a> = title.into();
    let mut b = Block::bordered();
    if s.highlight == Some(pane) {
        title.spans.insert(0, Span::styled("◆", hot()));
        b = b
            .border_type(BorderType::Thick)
            .border_style(Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD));
    } else if s.focus == pane {
        title.spans.insert(0, Span::raw("▸"));
        b = b.border_style(Style::new().fg(Color::Cyan));
    }
    b.title(title)
}

pub(crate) fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub(crate) fn hot() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}
