//! The sstatus.VS state machine: Off → Initial → Clean → Dirty, the current
//! state, and the last transition with its cause (priv spec §3.1.6.6).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::style::{dim, pane_block};
use crate::report::vs_name;
use crate::trace::Event;
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let cur = s.live.m.vs();
    let mut states = Vec::new();
    for v in 0..4u8 {
        if v > 0 {
            states.push(Span::styled(" → ", dim()));
        }
        // The current state is bracketed as well as coloured (colour alone
        // is lost in a text capture), in the same width as the others' spaces.
        if v == cur {
            let st = Style::new()
                .bg(Color::Magenta)
                .fg(Color::White)
                .add_modifier(Modifier::BOLD);
            states.push(Span::styled(format!("[{}]", vs_name(v)), st));
        } else {
            states.push(Span::raw(format!(" {} ", vs_name(v))));
        }
    }
    let mut lines = vec![Line::from(states)];
    let last = s
        .live
        .stats()
        .log
        .iter()
        .rev()
        .find_map(|e| match &e.event {
            Event::VsChange { from, to, pc, why } => Some((e.at, *from, *to, *pc, why.clone())),
            _ => None,
        });
    match last {
        Some((at, from, to, pc, why)) => {
            lines.push(Line::raw(format!(
                "{} → {} @{at} in {}",
                vs_name(from),
                vs_name(to),
                s.live.program().describe(pc)
            )));
            lines.push(Line::styled(why, dim()));
        }
        None => lines.push(Line::styled("no transition yet", dim())),
    }
    let block = pane_block(s, Pane::Vs, " sstatus.VS ");
    super::fit::show(
        f,
        area,
        s,
        Pane::Vs,
        block,
        lines,
        super::fit::Flow::Wrap,
        true,
    );
}
