//! The scenario's narration for where the guest is (or the lesson step's),
//! and, once the guest has written to its UART, the console's last lines.
//! The title says which lesson step is on screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::fit::Flow;
use super::style::{dim, pane_block};
use crate::tui::state::{AppState, Pane};

/// Console lines shown under the narration.
const CONSOLE_LINES: usize = 2;

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let text = s
        .narration
        .clone()
        .unwrap_or_else(|| s.scenario.title.clone());
    let mark = lesson_mark(s);
    let full = format!(" {}{mark} ", s.scenario.patch);
    // A title wider than the border: the lesson's place stays there, and
    // the patch's whole name goes under the text (nothing is cut).
    let room = usize::from(area.width.saturating_sub(2));
    let long = full.chars().count() > room;
    let title = if long {
        format!(" {} ", mark.trim_start_matches(" · ")).replace("  ", " ")
    } else {
        full
    };
    let mut lines = vec![Line::raw(text)];
    let uart = s.live.m.uart_output();
    if !uart.is_empty() {
        let console = crate::report::console::escape_console(uart);
        let tail: Vec<&str> = console.lines().rev().take(CONSOLE_LINES).collect();
        for l in tail.into_iter().rev() {
            lines.push(Line::styled(format!("uart › {l}"), dim()));
        }
    }
    if long {
        lines.push(Line::styled(format!("— {}", s.scenario.patch), dim()));
    }
    let block = pane_block(s, Pane::Narration, title);
    super::fit::show(f, area, s, Pane::Narration, block, lines, Flow::Wrap, true);
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
