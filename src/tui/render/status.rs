//! The status line: where we are, the last message, and how long it took.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dim;
use crate::tui::state::{AppState, Mode};

/// The most rows a message takes before it is cut (with an ellipsis).
const MESSAGE_ROWS: usize = 3;

/// The message's text wrapped to `width` at word boundaries.
fn message_lines(m: &str, width: u16) -> Vec<String> {
    let w = usize::from(width.max(10)) - 1;
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in m.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > w {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    out.push(cur);
    if out.len() > MESSAGE_ROWS {
        out.truncate(MESSAGE_ROWS);
        if let Some(l) = out.last_mut() {
            l.push_str(" …");
        }
    }
    out
}

/// The status line's rows at `width`: one for where we are, one or more for
/// the message (a long one wraps rather than being cut).
pub fn rows(s: &AppState, width: u16) -> u16 {
    let n = match (&s.mode, &s.message) {
        (Mode::Normal | Mode::Help, Some((m, _))) => message_lines(m, width).len(),
        _ => 1,
    };
    1 + n as u16
}

/// The key hint that fits `width`: items dropped from the middle, `? help`
/// and `q quit` always kept.
fn hint(width: u16) -> String {
    const ITEMS: [&str; 8] = [
        "s step",
        "n over",
        "o out",
        "c continue",
        "t trap",
        "b back",
        "Tab variant",
        "Space lesson",
    ];
    let tail = "? help · q quit";
    let w = usize::from(width).saturating_sub(2);
    let mut keep = ITEMS.len();
    loop {
        let mut parts: Vec<&str> = ITEMS[..keep].to_vec();
        parts.push(tail);
        let t = parts.join(" · ");
        if t.chars().count() <= w || keep == 0 {
            return format!(" {t}");
        }
        keep -= 1;
    }
}

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
    let mut lines = vec![first];
    match &s.mode {
        Mode::Command(c) => lines.push(Line::raw(format!(":{c}▏"))),
        Mode::Search(q) => lines.push(Line::raw(format!("/{q}▏"))),
        Mode::Normal | Mode::Help => match &s.message {
            Some((m, err)) => {
                let style = if *err {
                    Style::new().fg(Color::Red)
                } else {
                    Style::new()
                };
                lines.extend(
                    message_lines(m, area.width)
                        .into_iter()
                        .map(|l| Line::styled(format!(" {l}"), style)),
                );
            }
            None => lines.push(Line::styled(hint(area.width), dim())),
        },
    }
    f.render_widget(Paragraph::new(lines), area);
}
