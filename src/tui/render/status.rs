//! The status line drawn: where we are, the last message, how long the last
//! key took (`layout::status::latency_line`), the key hint, and a long action's
//! progress line. Its words and rows are laid out in `layout/status.rs`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::style::dim;
use crate::tui::layout::status::{self, Part, message_lines};
use crate::tui::state::{AppState, Mode};

/// The key hint that fits `width`: items dropped from the end of the list,
/// saying how many (`+3 more: ? help`, which lists every key), `? help` and
/// `q quit` always kept.
fn hint(width: u16) -> String {
    const ITEMS: [&str; 10] = [
        "s step",
        "n over",
        "o out",
        "c continue",
        "t trap",
        "b back",
        "Tab variant",
        "Space lesson",
        "r start",
        "R power-on",
    ];
    let w = usize::from(width).saturating_sub(2);
    let mut keep = ITEMS.len();
    loop {
        let tail = match ITEMS.len() - keep {
            0 => "? help · q quit".to_string(),
            n => format!("+{n} more: ? help · q quit"),
        };
        let mut parts: Vec<&str> = ITEMS[..keep].to_vec();
        parts.push(&tail);
        let t = parts.join(" · ");
        if t.chars().count() <= w || keep == 0 {
            return format!(" {t}");
        }
        keep -= 1;
    }
}

/// Where we are, styled: the badge, the recorder in red, the latency
/// dimmed (the words and their wrapping are the layout's).
fn first_lines(s: &AppState, width: u16) -> Vec<Line<'static>> {
    let p = status::first(s, width);
    p.lines(|part| match part {
        Part::Badge => Style::new().bg(Color::Cyan).fg(Color::Black),
        Part::Rec => Style::new().fg(Color::Red),
        Part::Latency => dim(),
        Part::Plain => Style::new(),
    })
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let mut lines = first_lines(s, area.width);
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

/// The line a long action shows while it runs (drawn over the status
/// line's last row).
pub fn progress_line(p: &crate::tui::state::Progress<'_>) -> String {
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
