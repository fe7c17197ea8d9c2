//! The help screen, generated from the keymap and the command table.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::tui::command::HELP;
use crate::tui::keymap::Keymap;

pub fn render(f: &mut Frame<'_>, area: Rect) {
    let mut text = Keymap::default().to_string();
    text.push_str("\n  mouse  click a pane to focus it, wheel scrolls it\n\ncommands (after :)\n");
    for (c, h) in HELP {
        text.push_str(&format!("  {c:<26} {h}\n"));
    }
    text.push_str("\nany key closes this help");
    let h = (text.lines().count() as u16 + 2).min(area.height);
    let [_, mid, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(h),
        Constraint::Fill(1),
    ])
    .areas(area);
    let [_, r, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(72),
        Constraint::Fill(1),
    ])
    .areas(mid);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(text).block(Block::bordered().title(" trapscope keys ")),
        r,
    );
}
