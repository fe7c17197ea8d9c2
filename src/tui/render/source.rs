//! The `.S` source around the pc (from DWARF), with a heat column of cycles
//! per measured iteration, breakpoints and the current line; `d` switches
//! to the disassembly (`source/disasm.rs`). A `/` match moves the view and
//! is marked with `»` and a colour.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{dim, pane_block};
use crate::machine::SrcLoc;
use crate::tui::search::{self, Hit};
use crate::tui::state::{AppState, Pane};

mod disasm;
mod heat;

pub(crate) use disasm::{center as disasm_center, rows as disasm_rows};

fn current() -> Style {
    Style::new()
        .bg(Color::Blue)
        .fg(Color::White)
        .add_modifier(Modifier::BOLD)
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    match s.source_center() {
        Some(center) if s.shows_source() => source(f, area, s, center),
        _ => disasm::render(f, area, s),
    }
}

fn source(f: &mut Frame<'_>, area: Rect, s: &AppState, center: SrcLoc) {
    let p = s.live.program();
    let pc_loc = p.loc(s.live.m.pc());
    let heat = heat::Heat::of(s);
    let text = s.sources.file(center.file);
    let h = area.height.saturating_sub(2) as i64;
    let first = (i64::from(center.line) - 1 - h / 2).clamp(0, (text.len() as i64 - h).max(0));
    let bp_lines: Vec<SrcLoc> = s.breakpoints.iter().filter_map(|&a| p.loc(a)).collect();
    let mut lines = Vec::new();
    for n in first..(first + h).min(text.len() as i64) {
        let here = SrcLoc {
            file: center.file,
            line: n as u32 + 1,
        };
        let is_pc = Some(here) == pc_loc;
        // The line Enter in the diff view pointed the pane at.
        let is_target = s.diff.source_at == Some(here);
        // A breakpoint and the pc each keep their glyph when they meet
        // (stopped at a breakpoint), so a text capture shows both.
        let bp = if bp_lines.contains(&here) { "●" } else { " " };
        let cur = if is_pc {
            "▶"
        } else if is_target {
            "→"
        } else if search::is_hit(s, Hit::Line(here)) {
            search::GLYPH
        } else {
            " "
        };
        let mark = format!("{bp}{cur}");
        let style = if is_pc || is_target {
            current()
        } else {
            Style::default()
        };
        let mut spans = vec![
            Span::styled(
                format!("{:>6} ", heat.line(s, here)),
                Style::new().fg(Color::Yellow),
            ),
            Span::styled(format!("{mark}{:>4} ", n + 1), dim()),
        ];
        spans.extend(search::spans(
            s,
            Hit::Line(here),
            text[n as usize].clone(),
            style,
        ));
        lines.push(Line::from(spans));
    }
    let file = p
        .files
        .get(center.file as usize)
        .cloned()
        .unwrap_or_default();
    let shown = match (s.diff.source_at, pc_loc) {
        (Some(l), _) if l.file == center.file => l.line,
        (_, Some(l)) if l.file == center.file => l.line,
        _ => center.line,
    };
    let at = match s.diff.source_at {
        Some(_) => format!("diff row (pc {})", p.describe(s.live.m.pc())),
        None => p.describe(s.live.m.pc()),
    };
    let title = format!(" {file}:{shown}  {at}  [{}] ", heat.title());
    f.render_widget(
        Paragraph::new(lines).block(pane_block(s, Pane::Source, title)),
        area,
    );
}
