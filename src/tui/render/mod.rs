//! The screen drawn: one file per pane, each drawing from `&AppState`
//! (docs/decisions.md C2, C3) where `layout.rs` puts it; then the diff
//! view over the panes it covers, the status line and the help.

mod backtrace;
mod csrs;
mod cycles;
mod diff;
mod events;
pub mod fit;
mod fp;
pub mod help;
mod memory;
mod narration;
mod ptregs;
mod ras;
mod regs;
mod reservation;
mod source;
pub mod status;
pub(crate) mod style;
mod timeline;
mod vector;
mod vs;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::layout;
pub use super::layout::{
    MIN_HEIGHT, MIN_WIDTH, WIDE_HEIGHT, WIDE_WIDTH, areas, compact, front, shown, tabs,
};
use super::state::{AppState, Mode, Pane};
pub(crate) use style::{dim, hot};

/// The compact layout's tab line: the panes taking turns, the one in front
/// marked by brackets as well as colour.
fn tab_line(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let line = layout::tab_line(area, s);
    let shown = front(s);
    let mut spans = Vec::new();
    for p in tabs(s.lower) {
        let name = match p {
            Pane::Csrs => "CSRs",
            Pane::Privilege => "Traps",
            Pane::Cycles => "Cycles",
            Pane::Ras => "RAS",
            Pane::Vector => "Vector",
            Pane::Reservation => "LR/SC",
            Pane::Fp => "FP",
            Pane::PtRegs => "pt_regs",
            Pane::Backtrace => "Backtrace",
            Pane::Memory => "Memory",
            Pane::Stack => "Stack",
            _ => p.name(),
        };
        if p == shown {
            spans.push(Span::styled(format!("[{name}]"), hot()));
        } else {
            spans.push(Span::styled(format!(" {name} "), dim()));
        }
    }
    spans.push(Span::styled(" w next", dim()));
    f.render_widget(Paragraph::new(Line::from(spans)), line);
}

pub fn draw(f: &mut Frame<'_>, s: &AppState) {
    let area = f.area();
    s.views.screen.set(Some(area));
    if layout::too_small((area.width, area.height)) {
        too_small(f, area);
        return;
    }
    let all = areas(area, s);
    for (pane, r) in &all {
        draw_pane(f, *r, s, *pane);
    }
    if compact(area) {
        tab_line(f, area, s);
    }
    // The diff view covers what it needs, the tab line included.
    if s.diff.open
        && let Some(r) = layout::diff_place(&all)
    {
        diff::overlay(f, r, s);
    }
    status::render(f, layout::status_line(area, s), s);
    if s.mode == Mode::Help {
        help::render(f, area, s.help_scroll);
    }
}

/// One pane in `area` (the layout's, or any other: tests draw panes at
/// sizes the layout never gives).
pub fn draw_pane(f: &mut Frame<'_>, r: Rect, s: &AppState, pane: Pane) {
    match pane {
        Pane::Source => source::render(f, r, s),
        Pane::Narration => narration::render(f, r, s),
        Pane::Events => events::render(f, r, s),
        Pane::Registers => regs::render(f, r, s),
        Pane::Ras => ras::render(f, r, s),
        Pane::Csrs => csrs::render(f, r, s),
        Pane::Privilege => timeline::render(f, r, s),
        Pane::Cycles => cycles::render(f, r, s),
        Pane::Vector => vector::render(f, r, s),
        Pane::Vs => vs::render(f, r, s),
        Pane::Reservation => reservation::render(f, r, s),
        Pane::Fp => fp::render(f, r, s),
        Pane::PtRegs => ptregs::render(f, r, s),
        Pane::Backtrace => backtrace::render(f, r, s),
        Pane::Memory => memory::render(f, r, s, memory::View::At),
        Pane::Stack => memory::render(f, r, s, memory::View::Stack),
        Pane::Diff => diff::render(f, r, s),
    }
}

fn too_small(f: &mut Frame<'_>, area: Rect) {
    let msg = format!(
        "trapscope needs a terminal of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}. Enlarge it, or press q to quit.",
        area.width, area.height
    );
    f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
}
