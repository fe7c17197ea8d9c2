//! The LR/SC reservation: what is reserved, the last SC's outcome and why,
//! and how often it retried; how the core runs AMOs; where probes sit.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

use super::{dim, hot, pane_block};
use crate::report::sc_text;
use crate::trace::Event;
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program();
    let t = s.live.m.lrsc();
    let mut lines = Vec::new();
    for probe in &s.scenario.probes {
        let rejected = s.scenario.probe_rejections.iter().any(|(p, _)| p == probe);
        let note = if rejected {
            " (rejected by the checker; placed anyway)"
        } else {
            ""
        };
        lines.push(Line::from(vec![
            Span::styled("probe    ", dim()),
            Span::raw(format!("{probe}{note}")),
        ]));
    }
    match t.current {
        Some(r) => lines.push(Line::from(vec![
            Span::styled("reserved ", dim()),
            Span::styled(
                format!("{:#x} ({} bytes)", r.addr, r.size),
                Style::new().fg(Color::Green),
            ),
            Span::raw(format!(" by lr at {}", p.describe(r.pc))),
        ])),
        None => {
            let why = t.lost.as_ref().map_or("no LR yet".to_string(), |o| {
                sc_text(p, o).replace("fails: ", "")
            });
            lines.push(Line::from(vec![
                Span::styled("reserved ", dim()),
                Span::raw(format!("nothing ({why})")),
            ]));
        }
    }
    let last = s
        .live
        .stats()
        .log
        .iter()
        .rev()
        .find_map(|e| match &e.event {
            Event::Sc {
                pc,
                outcome,
                retries,
                ..
            } => Some((*pc, outcome.clone(), *retries)),
            _ => None,
        });
    if let Some((pc, o, n)) = last {
        let style = if o.ok() {
            Style::new().fg(Color::Green)
        } else {
            hot()
        };
        lines.push(Line::from(vec![
            Span::styled("last sc  ", dim()),
            Span::raw(format!("{} ", p.describe(pc))),
            Span::styled(sc_text(p, &o), style),
        ]));
        if n > 0 {
            lines.push(Line::raw(format!("         {n} failures in a row")));
        }
    }
    lines.push(Line::raw(format!(
        "SCs      {} succeeded, {} failed; longest retry run {}",
        t.successes, t.fails, t.max_retries
    )));
    let amo = match s
        .core
        .as_ref()
        .or(s.scenario.variants[s.live.variant].core.as_ref())
    {
        Some(c) if c.atomics.amo_traps.value => "trapped to M-mode firmware, emulated with LR/SC",
        Some(_) => "run by the core",
        None => "run natively (no core model)",
    };
    lines.push(Line::from(vec![
        Span::styled("AMOs     ", dim()),
        Span::raw(amo),
    ]));
    let block = pane_block(s, Pane::Reservation, " LR/SC reservation ");
    super::fit::show(
        f,
        area,
        s,
        Pane::Reservation,
        block,
        lines,
        super::fit::Flow::Wrap,
        true,
    );
}
