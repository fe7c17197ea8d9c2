//! The screen: the layout as `const` constraint arrays, one file per pane,
//! each drawing from `&AppState` (docs/decisions.md C2, C3).
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
pub(crate) use source::{disasm_center, disasm_rows};
pub mod status;
mod timeline;
mod vector;
mod vs;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Wrap};

use super::state::{AppState, Lower, Mode, Pane};

/// Below this the panes cannot be drawn legibly (a classroom projector's
/// 100×30 is the smallest screen the layout is made for).
pub const MIN_WIDTH: u16 = 100;
pub const MIN_HEIGHT: u16 = 30;
/// From this size on every pane has a place of its own; below it (the
/// compact layout) the CSRs, the call stack, the cycles and the lower pane
/// share one place, one in front at a time (`w` brings the next forward).
pub const WIDE_WIDTH: u16 = 150;
pub const WIDE_HEIGHT: u16 = 36;

/// The panes above, the status line below: two rows, more when the
/// message needs them (`status::rows`).
fn rows(area: Rect, s: &AppState) -> [Constraint; 2] {
    [
        Constraint::Min(0),
        Constraint::Length(status::rows(s, area.width)),
    ]
}
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
/// The compact layout: the source column and one of 47 (the registers'
/// 45 and a margin), the registers above the shared place and its tab line.
const COMPACT: [Constraint; 2] = [Constraint::Min(50), Constraint::Length(47)];
const COMPACT_RIGHT: [Constraint; 3] = [
    Constraint::Length(18),
    Constraint::Length(1),
    Constraint::Min(6),
];

/// Whether `area` takes the compact layout.
pub fn compact(area: Rect) -> bool {
    area.width < WIDE_WIDTH || area.height < WIDE_HEIGHT
}

/// The panes that take turns in the compact layout's shared place, in `w`
/// order: the lower pane stands for whichever `v` chose.
pub fn tabs(lower: Lower) -> [Pane; 4] {
    let low = match lower {
        Lower::Ras => Pane::Ras,
        Lower::Vector => Pane::Vector,
        Lower::Reservation => Pane::Reservation,
        Lower::Fp => Pane::Fp,
        Lower::PtRegs => Pane::PtRegs,
        Lower::Backtrace => Pane::Backtrace,
        Lower::Memory => Pane::Memory,
        Lower::Stack => Pane::Stack,
    };
    [Pane::Csrs, Pane::Privilege, Pane::Cycles, low]
}

/// The pane in front of the shared place: the one a lesson step points at
/// or the focused one when they take turns there, else the last chosen.
pub fn front(s: &AppState) -> Pane {
    let t = tabs(s.lower);
    let is_tab = |p: Pane| t.contains(&p) || (p == Pane::Vs && s.lower == Lower::Vector);
    let pick = |p: Pane| if p == Pane::Vs { Pane::Vector } else { p };
    match (s.highlight, s.focus) {
        (Some(h), _) if is_tab(h) => pick(h),
        (_, f) if is_tab(f) => pick(f),
        _ => t[s.tab % t.len()],
    }
}

/// Where each pane is, for drawing and mouse clicks.
pub fn areas(area: Rect, s: &AppState) -> Vec<(Pane, Rect)> {
    let [main, _] = Layout::vertical(rows(area, s)).areas(area);
    if compact(area) {
        let [l, r] = Layout::horizontal(COMPACT).areas(main);
        let [src, narr, ev] = Layout::vertical(LEFT).areas(l);
        let [regs, _, shared] = Layout::vertical(COMPACT_RIGHT).areas(r);
        let mut v = vec![
            (Pane::Source, src),
            (Pane::Narration, narr),
            (Pane::Events, ev),
            (Pane::Registers, regs),
        ];
        lower_areas(&mut v, front(s), shared);
        return v;
    }
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
    let low = tabs(s.lower)[3];
    lower_areas(&mut v, low, ras);
    v
}

/// The panes on screen at `area`, the focus's round (S-Tab): left to right,
/// top to bottom; the diff view stands for the panes it covers.
pub fn shown(area: Rect, s: &AppState) -> Vec<Pane> {
    let mut all = areas(area, s);
    if s.diff.open
        && let Some(d) = diff::place(&all)
    {
        all.retain(|(_, r)| r.intersection(d) != *r);
        all.push((Pane::Diff, d));
    }
    all.sort_by_key(|(_, r)| (r.x, r.y));
    all.into_iter().map(|(p, _)| p).collect()
}

/// `pane` in `r`; the vector pane brings the VS state above it.
fn lower_areas(v: &mut Vec<(Pane, Rect)>, pane: Pane, r: Rect) {
    if pane == Pane::Vector {
        let [vs, vregs] = Layout::vertical(VECTOR).areas(r);
        v.push((Pane::Vs, vs));
        v.push((Pane::Vector, vregs));
    } else {
        v.push((pane, r));
    }
}

/// The compact layout's tab line: the panes taking turns, the one in front
/// marked by brackets as well as colour.
fn tab_line(f: &mut Frame<'_>, area: Rect, s: &AppState) {
    let [main, _] = Layout::vertical(rows(area, s)).areas(area);
    let [_, r] = Layout::horizontal(COMPACT).areas(main);
    let [_, line, _] = Layout::vertical(COMPACT_RIGHT).areas(r);
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
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
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
        && let Some(r) = diff::place(&all)
    {
        diff::overlay(f, r, s);
    }
    let [_, st] = Layout::vertical(rows(area, s)).areas(area);
    status::render(f, st, s);
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

/// A pane's frame: focused panes and the one a lesson points at stand out,
/// by a glyph before the title as well as the border's colour (a text
/// capture or a washed-out projector keeps the glyph).
pub(crate) fn pane_block<'a>(s: &AppState, pane: Pane, title: impl Into<Line<'a>>) -> Block<'a> {
    let mut title: Line<'a> = title.into();
    let mut b = Block::bordered();
    if s.highlight == Some(pane) {
        title.spans.insert(0, Span::styled("◆", hot()));
        b = b
            .border_type(BorderType::Thick)
            .border_style(Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD));
    } else if s.focus == pane {
        title.spans.insert(0, Span::raw("▸"));
        b = b.border_style(Style::new().fg(Color::Cyan));
    }
    b.title(title)
}

pub(crate) fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub(crate) fn hot() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}
