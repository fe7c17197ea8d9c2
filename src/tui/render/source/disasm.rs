//! The disassembly view drawn (`d`, or where the pc has no source): each
//! instruction's address, encoding, place and text as the listing gives
//! them (`layout/disasm.rs`, which the search reads too), and the heat
//! column of its source line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::super::style::{dim, pane_block};
use super::heat::Heat;
use super::{current, fit};
use crate::tui::layout::disasm::{anchor, listing, rows};
use crate::tui::search::{self, Hit};
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program();
    let pc = s.live.m.pc();
    let heat = Heat::of(s);
    let (title, head) = title(s, area, &heat);
    let h = (area.height.saturating_sub(2) as usize).saturating_sub(head.len());
    let (insns, at) = listing(s, anchor(s), h);
    let first = at.saturating_sub(h / 2) as i64 + s.source_scroll;
    let first = first.clamp(0, insns.len().saturating_sub(h) as i64) as usize;
    // The place column where there is room for it, as wide as its widest
    // place on screen (Left/Right reach what the pane has no room for).
    let place_w: usize = match area.width {
        w if w >= 110 => 26,
        w if w >= 84 => 18,
        _ => 0,
    };
    // The heat of a source line goes on its first instruction.
    let before = first
        .checked_sub(1)
        .and_then(|i| insns.get(i))
        .and_then(|d| p.loc(d.pc));
    let rows = rows(s, p, &insns[first..(first + h).min(insns.len())]);
    let place_w = match place_w {
        0 => 0,
        w => rows
            .iter()
            .map(|r| r.place.chars().count() + 1)
            .max()
            .unwrap_or(0)
            .max(w),
    };
    let mut last = before;
    let rows: Vec<fit::Row> = rows
        .into_iter()
        .map(|r| {
            let loc = p.loc(r.pc);
            let hot = match loc {
                Some(l) if Some(l) != last => heat.line(s, l),
                _ => String::new(),
            };
            last = loc;
            // A breakpoint and the pc each keep their glyph when they meet
            // (stopped at a breakpoint), so a text capture shows both.
            let bp = if s.breakpoints.contains(&r.pc) {
                "●"
            } else {
                " "
            };
            let cur = if r.pc == pc {
                "▶"
            } else if search::is_hit(s, Hit::Insn(r.pc)) {
                search::GLYPH
            } else {
                " "
            };
            let mark = format!("{bp}{cur}");
            let style = if r.pc == pc {
                current()
            } else {
                Style::default()
            };
            let gutter = vec![
                Span::styled(format!("{hot:>6} "), super::super::style::hot()),
                Span::styled(format!("{mark}{:>8x} ", r.pc), dim()),
                Span::styled(format!("{:<9}", r.enc), dim()),
            ];
            let mut body = Vec::new();
            if place_w > 0 {
                body.push(Span::styled(format!("{:<place_w$}", r.place), dim()));
            }
            body.extend(search::spans(s, Hit::Insn(r.pc), r.text, style));
            fit::Row { gutter, body }
        })
        .collect();
    let block = pane_block(s, Pane::Source, title);
    fit::show_rows(f, area, s, Pane::Source, block, head, rows);
}

/// The title: where the view is, the heat column's heading and why the
/// source is not shown, if it is not; what the border has no room for goes
/// on lines at the top of the pane.
fn title(s: &AppState, area: Rect, heat: &Heat) -> (String, Vec<Line<'static>>) {
    let p = s.live.program();
    let pc = s.live.m.pc();
    let place = match anchor(s) {
        a if a == pc => p.describe(pc),
        a => format!("{} (pc {})", p.describe(a), p.describe(pc)),
    };
    // The pc's source exists but may not be shown: say so once, here.
    let refused = p
        .loc(anchor(s))
        .and_then(|l| s.sources.refusal(l.file))
        .map(|w| crate::escape::escape_line(&w).into_owned())
        .unwrap_or_default();
    let parts = [
        "Disassembly".to_string(),
        place,
        format!("[{}]", heat.title()),
        refused,
    ];
    fit::title_parts(&parts, area.width, super::marked(s))
}
