//! The status line's words and rows: where we are (what gives way on a
//! narrow screen: the latency, then the variant's label) and the message
//! wrapped at words. Its height is the layout's (the panes get the rest),
//! so it is measured here; `render/status.rs` styles and draws the same
//! words.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::wrap::wrap_lines;
use crate::tui::state::{AppState, Mode};

/// The most rows a message takes before it is cut (with an ellipsis).
const MESSAGE_ROWS: usize = 3;

/// The message's text wrapped to `width` at word boundaries.
pub fn message_lines(m: &str, width: u16) -> Vec<String> {
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

/// The status line's rows at `width`: one for where we are (more should it
/// wrap), one or more for the message (a long one wraps rather than being
/// cut).
pub fn rows(s: &AppState, width: u16) -> u16 {
    let n = match (&s.mode, &s.message) {
        (Mode::Normal | Mode::Help, Some((m, _))) => message_lines(m, width).len(),
        _ => 1,
    };
    (first(s, width).lines(|_| Style::new()).len() + n) as u16
}

/// The parts of the first line, for their styles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The variant's name.
    Badge,
    /// `● REC n steps`.
    Rec,
    /// How long the last key took.
    Latency,
    Plain,
}

/// Where we are: the variant, core, instruction count and place in the
/// loop, with what a narrow screen has no room for left out.
pub struct First {
    badge: String,
    label: String,
    place: String,
    rec: String,
    latency: String,
    width: usize,
}

impl First {
    /// The line in `style`'s styles, wrapped at words should even what is
    /// left (the latency and the label given way) be wider than the screen.
    pub fn lines(&self, style: impl Fn(Part) -> Style) -> Vec<Line<'static>> {
        let first = Line::from(vec![
            Span::styled(self.badge.clone(), style(Part::Badge)),
            Span::styled(self.label.clone(), style(Part::Plain)),
            Span::styled(self.place.clone(), style(Part::Plain)),
            Span::styled(self.rec.clone(), style(Part::Rec)),
            Span::styled(self.latency.clone(), style(Part::Latency)),
        ]);
        if first.width() > self.width {
            wrap_lines(vec![first], self.width)
        } else {
            vec![first]
        }
    }
}

/// The first line's words at `width`.
pub fn first(s: &AppState, width: u16) -> First {
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
    let latency = match latency_line(s.timing.shown) {
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
    First {
        badge,
        label,
        place,
        rec,
        latency,
        width: w,
    }
}

/// The figures in words: `key→screen 12.3 ms = 2.1 wait + 9.0 update + 1.2
/// draw` (an empty string before the first key).
pub fn latency_line(shown: (u64, u64, u64)) -> String {
    let (update, draw, total) = shown;
    if total == 0 {
        return String::new();
    }
    let wait = total.saturating_sub(update + draw);
    let ms = |us: u64| us as f64 / 1000.0;
    format!(
        "key→screen {:.1} ms = {:.1} wait + {:.1} update + {:.1} draw",
        ms(total),
        ms(wait),
        ms(update),
        ms(draw)
    )
}
