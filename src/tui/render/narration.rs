//! The scenario's narration for where the guest is (or the lesson step's),
//! and, once the guest has written to its UART, the console's last lines.
//! The title says which lesson step is on screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use super::{dim, pane_block};
use crate::tui::state::{AppState, Pane};

/// Console lines shown under the narration.
const CONSOLE_LINES: usize = 2;

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let text = s
        .narration
        .clone()
        .unwrap_or_else(|| s.scenario.title.clone());
    let title = format!(" {}{} ", s.scenario.patch, lesson_mark(s));
    let mut lines = vec![Line::raw(text)];
    let uart = s.live.m.uart_output();
    if !uart.is_empty() {
        let console = crate::report::console::escape_console(uart);
        let tail: Vec<&str> = console.lines().rev().take(CONSOLE_LINES).collect();
        for l in tail.into_iter().rev() {
            lines.push(Line::styled(format!("uart › {l}"), dim()));
        }
    }
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(pane_block(s, Pane::Narration, title)),
        area,
    );
}

/// Where the lesson is, for the pane's title: `· lesson 2/6`, or that it
/// is over and Space replays it.
pub fn lesson_mark(s: &AppState) -> String {
    let n = s.player.steps.len();
    match s.player.next {
        _ if n == 0 || !s.player.active => String::new(),
        k if k >= n => format!(" · lesson over ({n} steps): Space replays it"),
        k => format!(" · lesson {k}/{n}"),
    }
}
