//! The `.S` source around the pc (from DWARF), with a heat column of cycles
//! per measured iteration, breakpoints and the current line; `d` switches
//! to the disassembly (`source/disasm.rs`). A `/` match moves the view and
//! is marked with `»` and a colour.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::fit;
use super::style::{dim, pane_block};
use crate::machine::SrcLoc;
use crate::tui::search::{self, Hit};
use crate::tui::state::{AppState, Pane};

mod disasm;
mod heat;

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
    let (title, head) = title(s, area, center, pc_loc, &heat);
    let h = (area.height.saturating_sub(2) as i64 - head.len() as i64).max(0);
    s.views.note_page(Pane::Source, h as usize);
    let first = (i64::from(center.line) - 1 - h / 2).clamp(0, (text.len() as i64 - h).max(0));
    let bp_lines: Vec<SrcLoc> = s.breakpoints.iter().filter_map(|&a| p.loc(a)).collect();
    // Left/Right scroll the text; the heat, marks and numbers stay.
    let panned = s.views.offset(Pane::Source).0 > 0;
    let mut rows = Vec::new();
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
        let gutter = vec![
            Span::styled(
                format!("{:>6} ", heat.line(s, here)),
                Style::new().fg(Color::Yellow),
            ),
            Span::styled(format!("{mark}{:>4} ", n + 1), dim()),
        ];
        let mut line = text[n as usize].clone();
        // A match past the right edge (the text not scrolled sideways):
        // the line starts further in, behind an ellipsis, so that the
        // match is on screen.
        let room = usize::from(area.width.saturating_sub(2)).saturating_sub(14);
        if !panned
            && search::is_hit(s, Hit::Line(here))
            && let Some(i) = search::find_in(&line, &s.search.query)
        {
            let col = line[..i].chars().count();
            let end = col + s.search.query.chars().count();
            if end > room && room > 8 {
                let from = (end + 4).saturating_sub(room).min(col);
                line = format!("…{}", line.chars().skip(from + 1).collect::<String>());
            }
        }
        let body = search::spans(s, Hit::Line(here), line, style);
        rows.push(fit::Row { gutter, body });
    }
    let block = pane_block(s, Pane::Source, title);
    fit::show_rows(f, area, s, Pane::Source, block, head, rows);
}

/// The title: file:line, where the pc is (or the diff row, or the match),
/// and the heat column's heading; what the border has no room for goes on
/// lines at the top of the pane.
fn title(
    s: &AppState,
    area: Rect,
    center: SrcLoc,
    pc_loc: Option<SrcLoc>,
    heat: &heat::Heat,
) -> (String, Vec<Line<'static>>) {
    let p = s.live.program();
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
    let on_match = matches!(s.search.hit(s), Some(Hit::Line(l)) if l == center);
    let at = match s.diff.source_at {
        Some(_) => format!("diff row (pc {})", p.describe(s.live.m.pc())),
        // The view is on a `/` match, not at the pc: the line is the
        // match's, and the pc is named as such.
        None if on_match && pc_loc != Some(center) => {
            format!("/ match · pc at {}", p.describe(s.live.m.pc()))
        }
        None => p.describe(s.live.m.pc()),
    };
    let shown = if on_match { center.line } else { shown };
    let parts = [format!("{file}:{shown}"), at, format!("[{}]", heat.title())];
    fit::title_parts(&parts, area.width, marked(s))
}

/// Whether the pane's title gets a glyph before it (focus or a lesson's
/// highlight: `pane_block`).
pub(super) fn marked(s: &AppState) -> bool {
    s.focus == Pane::Source || s.highlight == Some(Pane::Source)
}
