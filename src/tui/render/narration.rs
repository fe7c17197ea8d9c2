//! The scenario's narration for where the guest is (or the lesson step's).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Wrap};

use super::pane_block;
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let text = s
        .narration
        .clone()
        .unwrap_or_else(|| s.scenario.title.clone());
    let title = format!(" {} ", s.scenario.patch);
    f.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .block(pane_block(s, Pane::Narration, title)),
        area,
    );
}
