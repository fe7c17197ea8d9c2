//! The status line: where we are, the last message, how long the last key
//! took (`latency::describe`), and a long action's progress line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dim;
use crate::tui::state::{AppState, Mode};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let v = &s.scenario.variants[s.live.variant];
    let core = s
        .core
        .as_ref()
        .map_or("no core".to_string(), |c| c.name.clone());
    let first = Line::from(vec![
        Span::styled(
            format!(" {} ", v.name),
            Style::new().bg(Color::Cyan).fg(Color::Black),
        ),
        Span::raw(format!(
            " {} · {core} · {} instructions · iteration {} ",
            v.label,
            s.live.executed(),
            s.live.stats().iteration_hits
        )),
        Span::styled(
            match &s.recorder {
                Some(r) if r.steps.len() == 1 => "● REC 1 step ".to_string(),
                Some(r) => format!("● REC {} steps ", r.steps.len()),
                None => String::new(),
            },
            Style::new().fg(Color::Red),
        ),
        Span::styled(
            match crate::tui::latency::describe(s.timing.shown) {
                t if t.is_empty() => t,
                t => format!("· {t}"),
            },
            dim(),
        ),
    ]);
    let second = match &s.mode {
        Mode::Command(c) => Line::raw(format!(":{c}▏")),
        _ => match &s.message {
            Some((m, true)) => Line::styled(format!(" {m}"), Style::new().fg(Color::Red)),
            Some((m, false)) => Line::raw(format!(" {m}")),
            None => Line::styled(
                " s step · n over · o out · c continue · t trap · b back · r start · R power-on · Tab variant · Space lesson · ? help · q quit",
                dim(),
            ),
        },
    };
    f.render_widget(Paragraph::new(vec![first, second]), area);
}

/// The line a long action shows while it runs (drawn over the status
/// line's last row).
pub fn progress_line(p: &crate::tui::update::long::Progress<'_>) -> String {
    let secs = p.started.elapsed().as_secs_f64();
    let of = match p.total {
        Some(t) if t > 0 => format!(" of {t} ({}%)", p.done.saturating_mul(100) / t),
        _ => String::new(),
    };
    format!(
        " {}: {} instructions{of} · {secs:.1} s · Esc stops, q quits",
        p.what, p.done
    )
}
