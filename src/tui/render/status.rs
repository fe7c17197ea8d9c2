//! The status line: where we are, the last message, and how long it took.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dim;
use crate::tui::state::{AppState, Mode};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let v = &s.scenario.variants[s.live.variant];
    // The core the live variant runs on: its own, else the session's.
    let core = s
        .live
        .stats()
        .model
        .as_ref()
        .map(|m| m.profile.name.clone())
        .or_else(|| v.core.as_ref().or(s.core.as_ref()).map(|c| c.name.clone()))
        .unwrap_or_else(|| "no core".to_string());
    let iteration = if s.scenario.measure.is_some() {
        format!(" · iteration {}", s.live.stats().iteration_hits)
    } else {
        " · no measured loop".to_string()
    };
    let first = Line::from(vec![
        Span::styled(
            format!(" {} ", v.name),
            Style::new().bg(Color::Cyan).fg(Color::Black),
        ),
        Span::raw(format!(
            " {} · {core} · {} instructions{iteration} ",
            v.label,
            s.live.executed(),
        )),
        Span::styled(
            format!(
                "· last key: {:.1} ms to frame (update {:.1}, draw {:.1})",
                s.timing.shown.2 as f64 / 1000.0,
                s.timing.shown.0 as f64 / 1000.0,
                s.timing.shown.1 as f64 / 1000.0
            ),
            dim(),
        ),
    ]);
    let second = match &s.mode {
        Mode::Command(c) => Line::raw(format!(":{c}▏")),
        Mode::Search(q) => Line::raw(format!("/{q}▏")),
        _ => match &s.message {
            Some((m, true)) => Line::styled(format!(" {m}"), Style::new().fg(Color::Red)),
            Some((m, false)) => Line::raw(format!(" {m}")),
            None => Line::styled(
                " s step · n over · o out · c continue · t trap · b back · Tab variant · Space lesson · ? help · q quit",
                dim(),
            ),
        },
    };
    f.render_widget(Paragraph::new(vec![first, second]), area);
}
