//! The vector registers: vl and vtype decoded, and v0–v31 as elements at the
//! current SEW, with registers the last action wrote and registers holding
//! the all-ones clobber pattern of `riscv_v_vstate_discard` marked.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::style::{dim, hot, pane_block};
use crate::tui::state::{AppState, Pane};

/// SEW in bits and LMUL as text, from vtype (V spec §3.4).
pub fn decode_vtype(vtype: u64) -> Option<(u32, &'static str, bool, bool)> {
    if vtype >> 63 == 1 {
        return None;
    }
    let sew = 8u32 << ((vtype >> 3) & 7);
    let lmul = ["m1", "m2", "m4", "m8", "?", "mf8", "mf4", "mf2"][(vtype & 7) as usize];
    Some((sew, lmul, vtype >> 6 & 1 == 1, vtype >> 7 & 1 == 1))
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let Some(u) = s.live.m.vunit() else {
        f.render_widget(
            Paragraph::new("no vector unit on this core").block(pane_block(
                s,
                Pane::Vector,
                " Vector ",
            )),
            area,
        );
        return;
    };
    let head = match decode_vtype(u.vtype) {
        Some((sew, lmul, ta, ma)) => format!(
            "vl {}  e{sew} {lmul} {} {}  vstart {}",
            u.vl,
            if ta { "ta" } else { "tu" },
            if ma { "ma" } else { "mu" },
            u.vstart
        ),
        None => format!("vl {}  vtype.vill set (no valid config)", u.vl),
    };
    let mut lines = vec![Line::raw(head)];
    let sew_bytes = decode_vtype(u.vtype).map_or(1, |(sew, ..)| sew as usize / 8);
    let width = area.width.saturating_sub(8) as usize;
    let total = (u.vlen as usize / 8 / sew_bytes).max(1);
    let per = shown_elements(width, sew_bytes, total);
    // All 32: a pane too short for them scrolls (Up/Down, `more ↓N`).
    for i in 0..32usize {
        let r = u.reg(i);
        let mut elems: Vec<String> = r
            .chunks(sew_bytes)
            .take(per)
            .map(|c| c.iter().rev().map(|b| format!("{b:02x}")).collect())
            .collect();
        if per < total {
            elems.push(hidden(total - per));
        }
        let changed = s.live.vchanged & (1 << i) != 0;
        let clobbered = r.iter().all(|b| *b == 0xff);
        let (mark, style) = if changed {
            ("*", hot())
        } else if clobbered {
            ("#", Style::new().fg(Color::Red))
        } else {
            (" ", Style::default())
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{mark}v{i:<3}"), dim()),
            Span::styled(elems.join(" "), style),
        ]));
    }
    let title = format!(" Vector  VLEN {}  (* written, # all ones) ", u.vlen);
    let block = pane_block(s, Pane::Vector, title);
    super::fit::show(
        f,
        area,
        s,
        Pane::Vector,
        block,
        lines,
        super::fit::Flow::Pan,
        true,
    );
}

/// How many elements hide past the shown ones, as the row ends with it.
fn hidden(n: usize) -> String {
    format!("… +{n}")
}

/// How many of a register's `total` elements of `sew_bytes` fit in `width`
/// columns (each 2 hex digits a byte and a space), keeping room for the
/// count of hidden ones when not all fit.
fn shown_elements(width: usize, sew_bytes: usize, total: usize) -> usize {
    let each = 2 * sew_bytes + 1;
    if total * each <= width + 1 {
        return total;
    }
    let room = width.saturating_sub(hidden(total).chars().count());
    (room / each).clamp(1, total)
}
