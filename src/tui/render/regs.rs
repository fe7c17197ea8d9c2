//! GPRs by ABI name; those the last action wrote stand out.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{hot, pane_block};
use crate::isa::ABI;
use crate::tui::state::{AppState, Pane};

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let l = &s.live;
    let cell = |i: usize| -> Vec<Span<'static>> {
        let style = if l.changed & (1 << i) != 0 {
            hot()
        } else {
            Default::default()
        };
        vec![
            Span::raw(format!("{:>4} ", ABI[i])),
            Span::styled(format!("{:016x}", l.regs[i]), style),
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
    f.render_widget(
        Paragraph::new(lines).block(pane_block(s, Pane::Registers, title)),
        area,
    );
}
