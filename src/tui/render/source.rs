//! The `.S` source around the pc (from DWARF), with a heat column of cycles
//! per line, breakpoints and the current line; `d` switches to disassembly.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{dim, pane_block};
use crate::machine::{SrcLoc, decode_range};
use crate::tui::state::{AppState, Pane};

fn current() -> Style {
    Style::new()
        .bg(Color::Blue)
        .fg(Color::White)
        .add_modifier(Modifier::BOLD)
}

/// Cycles of a line: per iteration when the loop has run, else in total.
fn heat(s: &AppState, loc: SrcLoc) -> String {
    let st = s.live.stats();
    let milli = st.line_cycles(loc);
    if milli == 0 {
        return String::new();
    }
    let v = milli as f64 / crate::cost::MILLI as f64;
    match st.iteration_hits {
        0 => format!("{v:.0}"),
        n => format!("{:.1}", v / n as f64),
    }
}

pub fn render(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program().clone();
    let pc = s.live.m.pc();
    // Enter in the diff view points the pane at a line of the path.
    let loc = s.diff.source_at.or(p.loc(pc));
    match loc {
        Some(loc) if !s.disasm && !s.sources.file(loc.file).is_empty() => source(f, area, s, loc),
        _ => disasm(f, area, s),
    }
    let _ = pc;
}

fn source(f: &mut Frame<'_>, area: Rect, s: &AppState, loc: SrcLoc) {
    let p = s.live.program();
    let text = &s.sources.file(loc.file);
    let h = area.height.saturating_sub(2) as i64;
    let first = (i64::from(loc.line) - 1 - h / 2 + s.source_scroll)
        .clamp(0, (text.len() as i64 - h).max(0));
    let bp_lines: Vec<SrcLoc> = s.breakpoints.iter().filter_map(|&a| p.loc(a)).collect();
    let heat_title = if s.live.stats().iteration_hits > 0 {
        "cyc/it"
    } else {
        "cycles"
    };
    let mut lines = Vec::new();
    for n in first..(first + h).min(text.len() as i64) {
        let here = SrcLoc {
            file: loc.file,
            line: n as u32 + 1,
        };
        let is_pc = here == loc;
        let mark = if bp_lines.contains(&here) {
            "●"
        } else if is_pc {
            "▶"
        } else {
            " "
        };
        let body = Span::styled(
            text[n as usize].clone(),
            if is_pc { current() } else { Style::default() },
        );
        lines.push(Line::from(vec![
            Span::styled(
                format!("{:>6} ", heat(s, here)),
                Style::new().fg(Color::Yellow),
            ),
            Span::styled(format!("{mark}{:>4} ", n + 1), dim()),
            body,
        ]));
    }
    let file = p.files.get(loc.file as usize).cloned().unwrap_or_default();
    let title = format!(
        " {file}:{}  {}  [{heat_title}] ",
        loc.line,
        p.describe(s.live.m.pc())
    );
    f.render_widget(
        Paragraph::new(lines).block(pane_block(s, Pane::Source, title)),
        area,
    );
}

fn disasm(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let p = s.live.program();
    let pc = s.live.m.pc();
    let h = area.height.saturating_sub(2) as usize;
    // Decode forward from the start of the function (RVC makes backwards
    // decoding ambiguous), then show a window around the pc.
    let start = p
        .symbol_at(pc)
        .map_or(pc, |(sym, _)| sym.addr)
        .max(pc.saturating_sub(0x400));
    let want = (pc - start) as usize + 4 * h;
    let bytes = s
        .live
        .m
        .read_mem(start, want)
        .or_else(|| s.live.m.read_mem(pc, 4 * h))
        .unwrap_or_default();
    let base = if bytes.len() == want { start } else { pc };
    let insns = decode_range(base, &bytes);
    let at = insns.iter().position(|d| d.pc == pc).unwrap_or(0);
    let first = at.saturating_sub(h / 2) as i64 + s.source_scroll;
    let first = first.clamp(0, insns.len().saturating_sub(h) as i64) as usize;
    let lines: Vec<Line> = insns
        .iter()
        .skip(first)
        .take(h)
        .map(|d| {
            let text = d.insn.map_or_else(
                || format!(".insn {:#x}", d.raw),
                |i| crate::machine::disasm(&i, d.pc),
            );
            let mark = if s.breakpoints.contains(&d.pc) {
                "●"
            } else if d.pc == pc {
                "▶"
            } else {
                " "
            };
            let style = if d.pc == pc {
                current()
            } else {
                Style::default()
            };
            Line::from(vec![
                Span::styled(format!("{mark}{:>10x} ", d.pc), dim()),
                Span::styled(format!("{:<26}", p.describe(d.pc)), dim()),
                Span::styled(text, style),
            ])
        })
        .collect();
    let title = format!(" Disassembly  {} ", p.describe(pc));
    f.render_widget(
        Paragraph::new(lines).block(pane_block(s, Pane::Source, title)),
        area,
    );
}
