//! Where everything goes on the screen, in one place that both `render`
//! (which draws there) and `update` and `input` (S-Tab's round, `w`'s
//! shared place, the help's scrolling, mouse clicks) use, so that the keys
//! act on what the last frame showed and no state-changing code has to
//! reach into the drawing. The layout is `const` constraint arrays:
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
//! Below 150×36 the compact layout lets the CSRs, the call stack, the
//! cycles and the lower pane take turns in one place. The status line's
//! height (`status.rs`), the help box (`help.rs`) and the disassembly's
//! listing (`disasm.rs`, which the search goes by) are laid out here too;
//! `wrap.rs` wraps text to a width.

pub mod disasm;
pub mod help;
pub mod status;
pub mod wrap;

use ratatui::layout::{Constraint, Layout, Rect};

use super::state::{AppState, Lower, Pane};

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
/// The left column while the diff view is open: the source over the diff.
const DIFF_SPLIT: [Constraint; 2] = [Constraint::Percentage(35), Constraint::Min(6)];
/// A row of the diff view needs about this many columns.
const DIFF_WANT: u16 = 76;

/// Whether the screen is too small to draw the panes (only q, Ctrl-C and
/// resizing act then).
pub fn too_small(size: (u16, u16)) -> bool {
    size.0 < MIN_WIDTH || size.1 < MIN_HEIGHT
}

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
        && let Some(d) = diff_place(&all)
    {
        all.retain(|(_, r)| r.intersection(d) != *r);
        all.push((Pane::Diff, d));
    }
    all.sort_by_key(|(_, r)| (r.x, r.y));
    all.into_iter().map(|(p, _)| p).collect()
}

/// The screen S-Tab goes by: the last frame's, else the wide layout's.
pub fn last_screen(s: &AppState) -> Rect {
    s.views
        .screen
        .get()
        .unwrap_or(Rect::new(0, 0, WIDE_WIDTH, WIDE_HEIGHT))
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

/// The compact layout's tab line (the row above the shared place).
pub fn tab_line(area: Rect, s: &AppState) -> Rect {
    let [main, _] = Layout::vertical(rows(area, s)).areas(area);
    let [_, r] = Layout::horizontal(COMPACT).areas(main);
    let [_, line, _] = Layout::vertical(COMPACT_RIGHT).areas(r);
    line
}

/// The status line's place at the bottom.
pub fn status_line(area: Rect, s: &AppState) -> Rect {
    let [_, st] = Layout::vertical(rows(area, s)).areas(area);
    st
}

/// Where the diff view goes: the left column (source, narration, events),
/// and the middle one too (registers, RAS) when the left alone is too
/// narrow.
pub fn diff_place(areas: &[(Pane, Rect)]) -> Option<Rect> {
    let left = union(areas, &[Pane::Source, Pane::Narration, Pane::Events])?;
    if left.width >= DIFF_WANT {
        return Some(left);
    }
    let middle = [
        Pane::Registers,
        Pane::Ras,
        Pane::Vector,
        Pane::Vs,
        Pane::Reservation,
    ];
    Some(union(areas, &middle).map_or(left, |m| left.union(m)))
}

/// The diff view's place split: the source above, the diff below.
pub fn diff_split(place: Rect) -> [Rect; 2] {
    Layout::vertical(DIFF_SPLIT).areas(place)
}

/// The rectangle covering `panes` in `areas`.
pub fn union(areas: &[(Pane, Rect)], panes: &[Pane]) -> Option<Rect> {
    areas
        .iter()
        .filter(|(p, _)| panes.contains(p))
        .map(|(_, r)| *r)
        .reduce(|a, b| a.union(b))
}
