//! The event log, newest at the bottom, filtered by kind with `f`
//! (`report::EventFilter`); the title says what `#` and `@` number.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

use super::fit::Flow;
use super::style::{dim, pane_block};
use crate::report::event_text;
use crate::trace::EventKind;
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program();
    let log = &s.live.stats().log;
    let h = area.height.saturating_sub(2) as usize;
    s.views.note_page(Pane::Events, h);
    // Only the rows on screen are gathered, newest first (the log holds up
    // to 200,000 events deep into a run); the title counts them all.
    let total = log.total();
    let matching = log.iter().filter(|e| s.filter.matches(&e.event)).count();
    let end = matching.saturating_sub(s.events_scroll);
    let start = end.saturating_sub(h);
    let mut shown: Vec<(u64, &crate::trace::Stamped)> = log
        .iter()
        .rev()
        .enumerate()
        .map(|(k, e)| (total - 1 - k as u64, e))
        .filter(|(_, e)| s.filter.matches(&e.event))
        .skip(matching - end)
        .take(end - start)
        .collect();
    shown.reverse();
    // Columns as wide as the largest number shown, so that a deep run's
    // counts never run into the text.
    let digits = |n: u64| n.checked_ilog10().unwrap_or(0) as usize + 1;
    let wi = shown
        .iter()
        .map(|(_, e)| digits(e.n))
        .max()
        .unwrap_or(0)
        .max(5);
    let wa = shown
        .iter()
        .map(|(_, e)| digits(e.at))
        .max()
        .unwrap_or(0)
        .max(7);
    let lines: Vec<Line> = shown
        .iter()
        .map(|(i, e)| {
            let style = match e.event.kind() {
                EventKind::TrapEnter | EventKind::TrapReturn => Style::new().fg(Color::Cyan),
                EventKind::Mispredict => Style::new().fg(Color::Yellow),
                EventKind::GuestFault => Style::new().fg(Color::Red),
                _ => Style::default(),
            };
            // A `/` match: `»` for `#`, the matched text coloured.
            let hit = crate::tui::search::Hit::Event(*i);
            let mark = if crate::tui::search::is_hit(s, hit) {
                '»'
            } else {
                '#'
            };
            // A retired range has no number of its own (events.rs in
            // trace: how a run is cut into blocks depends on the way).
            let num = if e.event.kind() == EventKind::Retired {
                format!("{:wi$}", "")
            } else {
                e.n.to_string()
            };
            let mut spans = vec![Span::styled(
                format!("{mark}{num:<wi$} @{:<wa$} ", e.at),
                dim(),
            )];
            spans.extend(crate::tui::search::spans(
                s,
                hit,
                event_text(p, &e.event),
                style,
            ));
            Line::from(spans)
        })
        .collect();
    // `#` numbers the events (retired ranges aside), `@` counts the
    // instructions executed before each.
    let title = format!(
        " Events [{}] {}  #event @instructions  (f: filter) ",
        s.filter.name(),
        matching
    );
    let block = pane_block(s, Pane::Events, title);
    super::fit::show(f, area, s, Pane::Events, block, lines, Flow::Pan, false);
}
