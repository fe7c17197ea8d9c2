//! The LR/SC reservation: what is reserved, the last SC's outcome and why,
//! and how often it retried; how the core runs AMOs; where probes sit.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

use super::style::{dim, hot, pane_block};
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
        // An sc whose result goes to x0 is there for its side effect: a
        // kernel's trap return (Linux's ret_from_exception) clears any
        // reservation the interrupted code held that way, and with none
        // held it fails as it should (unprivileged spec, "Zalrsc": an SC
        // may be used to invalidate a reservation).
        let clears = s
            .live
            .m
            .read_mem(pc, 4)
            .and_then(|b| b.try_into().ok())
            .is_some_and(|w: [u8; 4]| is_sc_to_x0(u32::from_le_bytes(w)));
        let (text, style) = if clears && !o.ok() {
            (
                format!(
                    "clears the reservation ({}: its result goes to x0, so failing is its purpose, not a fault)",
                    sc_text(p, &o)
                ),
                dim(),
            )
        } else {
            (sc_text(p, &o), style)
        };
        lines.push(Line::from(vec![
            Span::styled("last sc  ", dim()),
            Span::raw(format!("{} ", p.describe(pc))),
            Span::styled(text, style),
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

/// `sc.w`/`sc.d` (AMO opcode, funct5 00011) with rd = x0: the result is
/// thrown away, so the instruction is there to drop the reservation.
pub fn is_sc_to_x0(w: u32) -> bool {
    w & 0x7f == 0x2f
        && (w >> 27) == 0b00011
        && (w >> 7) & 0x1f == 0
        && matches!((w >> 12) & 7, 2 | 3)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_sc_to_x0_is_told_apart_from_one_whose_result_is_read() {
        // sc.d zero, a2, (sp): funct5 00011, rs2 a2 (12), rs1 sp (2), funct3 3, rd 0.
        let clear = 0b00011 << 27 | 12 << 20 | 2 << 15 | 3 << 12 | 0x2f;
        assert!(super::is_sc_to_x0(clear));
        // The same with rd = t0 (5), and lr.d zero, (sp) (funct5 00010).
        assert!(!super::is_sc_to_x0(clear | 5 << 7));
        assert!(!super::is_sc_to_x0(
            0b00010 << 27 | 2 << 15 | 3 << 12 | 0x2f
        ));
    }
}
