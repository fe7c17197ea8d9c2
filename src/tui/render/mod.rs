//! The screen: the layout as `const` constraint arrays, one file per pane,
//! each drawing from `&AppState` (CONVENTIONS.md 2, 3).
//!
//! ```text
//! ┌ Source ─────────────────────┐┌ Registers ────────┐┌ CSRs ──────────────┐
//! │ cycles  line  entry.S       ││ ra  sp  gp  tp ...││ sstatus, sepc ...  │
//! │ ▶ current line, ● breakpoint││                   │├ Privilege & traps ─┤
//! │                             ││                   ││ [S] the call stack │
//! ├ Narration ──────────────────┤├ RAS ──────────────┤├ Cycles ────────────┤
//! │ the scenario's text         ││ entries, last pop ││ phases, sparkline, │
//! ├ Events ─────────────────────┤│ predicted/actual  ││ other variant      │
//! │ #12 trap ecall ...          ││                   ││                    │
//! └─────────────────────────────┘└───────────────────┘└────────────────────┘
//!  status: scenario · variant · core · pc · instructions · message
//! ```
//! The right column has room for the vector and atomics panes to come.

mod csrs;
mod cycles;
mod events;
mod help;
mod narration;
mod ras;
mod regs;
mod reservation;
mod source;
pub mod status;
mod timeline;
mod vector;
mod vs;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Paragraph, Wrap};

use super::state::{AppState, Lower, Mode, Pane};

/// Below this the panes cannot be drawn legibly.
pub const MIN_WIDTH: u16 = 128;
pub const MIN_HEIGHT: u16 = 32;

const ROWS: [Constraint; 2] = [Constraint::Min(0), Constraint::Length(2)];
const COLUMNS: [Constraint; 3] = [
    Constraint::Min(40),
    Constraint::Length(45),
    Constraint::Length(43),
];
const LEFT: [Constraint; 3] = [
    Constraint::Percentage(58),
    Constraint::Length(6),
    Constraint::Min(5),
];
const MIDDLE: [Constraint; 2] = [Constraint::Length(18), Constraint::Min(6)];
/// With a vector unit, the RAS's place holds the VS state and the registers.
const VECTOR: [Constraint; 2] = [Constraint::Length(5), Constraint::Min(4)];
/// The call stack and the cycles share what the CSRs leave.
const RIGHT: [Constraint; 3] = [
    Constraint::Length(13),
    Constraint::Fill(1),
    Constraint::Fill(1),
];

/// Where each pane is, for mouse clicks.
pub fn areas(area: Rect, lower: Lower) -> Vec<(Pane, Rect)> {
    let [main, _] = Layout::vertical(ROWS).areas(area);
    let [l, m, r] = Layout::horizontal(COLUMNS).areas(main);
    let [src, narr, ev] = Layout::vertical(LEFT).areas(l);
    let [regs, ras] = Layout::vertical(MIDDLE).areas(m);
    let [csrs, prv, cyc] = Layout::vertical(RIGHT).areas(r);
    let mut v = vec![
        (Pane::Source, src),
        (Pane::Narration, narr),
        (Pane::Events, ev),
        (Pane::Registers, regs),
        (Pane::Csrs, csrs),
        (Pane::Privilege, prv),
        (Pane::Cycles, cyc),
    ];
    match lower {
        Lower::Vector => {
            let [vs, vregs] = Layout::vertical(VECTOR).areas(ras);
            v.push((Pane::Vs, vs));
            v.push((Pane::Vector, vregs));
        }
        Lower::Reservation => v.push((Pane::Reservation, ras)),
        Lower::Ras => v.push((Pane::Ras, ras)),
    }
    v
}

pub fn draw(f: &mut Frame<'_>, s: &AppState) {
    let area = f.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(f, area);
        return;
    }
    for (pane, r) in areas(area, s.lower) {
        draw_pane(f, r, s, pane);
    }
    let [_, st] = Layout::vertical(ROWS).areas(area);
    status::render(f, st, s);
    if s.mode == Mode::Help {
        help::render(f, area);
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
    }
}

fn too_small(f: &mut Frame<'_>, area: Rect) {
    let msg = format!(
        "trapscope needs a terminal of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}. Enlarge it, or press q to quit.",
        area.width, area.height
    );
    f.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
}

/// A pane's frame: focused panes and the one a lesson points at stand out.
pub(crate) fn pane_block<'a>(s: &AppState, pane: Pane, title: impl Into<Line<'a>>) -> Block<'a> {
    let mut b = Block::bordered().title(title);
    if s.highlight == Some(pane) {
        b = b
            .border_type(BorderType::Thick)
            .border_style(Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD));
    } else if s.focus == pane {
        b = b.border_style(Style::new().fg(Color::Cyan));
    }
    b
}

pub(crate) fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub(crate) fn hot() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}
