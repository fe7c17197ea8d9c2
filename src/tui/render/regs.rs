//! GPRs by ABI name; those the last action wrote stand out, by colour and
//! a `*` before the value.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::style::{hot, pane_block};
use crate::isa::ABI;
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let l = &s.live;
    // A written register carries a mark as well as the colour (colour
    // alone is lost in a text capture or on a projector).
    let cell = |i: usize| -> Vec<Span<'static>> {
        let written = l.changed & (1 << i) != 0;
        let (mark, style) = if written {
            (super::fp::WRITTEN, hot())
        } else {
            (' ', Default::default())
        };
        vec![
            Span::raw(format!("{:>4}", ABI[i])),
            Span::styled(format!("{mark}{:016x}", l.regs[i]), style),
        ]
    };
    let mut lines = Vec::new();
    for r in 0..16 {
        let mut spans = cell(r);
        spans.push(Span::raw(" "));
        spans.extend(cell(r + 16));
        lines.push(Line::from(spans));
    }
    let title = format!(" Registers  pc {:#x} ", l.m.pc());
    let block = pane_block(s, Pane::Registers, title);
    super::fit::show(
        f,
        area,
        s,
        Pane::Registers,
        block,
        lines,
        super::fit::Flow::Pan,
        true,
    );
}
