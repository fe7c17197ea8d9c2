//! The status line: where we are, the last message, how long the last key
//! took (`latency::describe`), and a long action's progress line.

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
    (first_lines(s, width).len() + n) as u16
}

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

/// Where we are: the variant, core, instruction count and place in the
/// loop, wrapped at words should even that (the latency and the label
/// given way) be wider than the screen.
fn first_lines(s: &AppState, width: u16) -> Vec<Line<'static>> {
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
    let iteration = if let Some(m) = &s.scenario.measure {
        let place = s.live.stats().iteration_place();
        match &m.start {
            Some(start) if place == crate::session::stats::BEFORE_WINDOW => {
                format!(" · {place} (it opens at {start})")
            }
            _ => format!(" · {place}"),
        }
    } else {
        " · no measured loop".to_string()
    };
    let rec = match &s.recorder {
        Some(r) if r.steps.len() == 1 => "● REC 1 step ".to_string(),
        Some(r) => format!("● REC {} steps ", r.steps.len()),
        None => String::new(),
    };
    let latency = match crate::tui::latency::describe(s.timing.shown) {
        t if t.is_empty() => t,
        t => format!("· {t}"),
    };
    // What gives way on a narrow screen: the latency, then the label.
    let w = usize::from(width);
    let len = |parts: &[&str]| parts.iter().map(|p| p.chars().count()).sum::<usize>();
    let badge = format!(" {} ", v.name);
    let mut label = format!(" {} ·", v.label);
    let probes = match s.probes.len() {
        0 => String::new(),
        n => format!(" · {n} probe{}", if n == 1 { "" } else { "s" }),
    };
    let place = format!(
        " {core} · {} instructions{iteration}{probes} ",
        s.live.executed()
    );
    let mut latency = latency;
    if len(&[&badge, &label, &place, &rec, &latency]) > w {
        latency.clear();
    }
    if len(&[&badge, &label, &place, &rec]) > w {
        label.clear();
    }
    let first = Line::from(vec![
        Span::styled(badge, Style::new().bg(Color::Cyan).fg(Color::Black)),
        Span::raw(label),
        Span::raw(place),
        Span::styled(rec, Style::new().fg(Color::Red)),
        Span::styled(latency, dim()),
    ]);
    if first.width() > w {
        super::fit::wrap_lines(vec![first], w)
    } else {
        vec![first]
    }
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
