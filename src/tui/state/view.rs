//! Where each pane's text is scrolled to, for the lines and columns a pane
//! is too small for (Left/Right, and Up/Down in a pane with no scrolling of
//! its own), and what the last frame drew: how far each pane can scroll and
//! the screen's size, so that keys stop at the last column and S-Tab visits
//! only the panes on screen.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use ratatui::layout::Rect;

/// Columns a Left/Right press moves.
pub const PAN_STEP: u16 = 8;

#[derive(Debug, Default)]
pub struct PaneViews {
    /// (columns, rows) scrolled past, by pane.
    offsets: HashMap<Pane, (u16, u16)>,
    /// The most each pane could scroll when last drawn (written by render).
    extents: RefCell<HashMap<Pane, (u16, u16)>>,
    /// Where render placed a pane that follows something (the cycles pane
    /// keeps the live variant in view) until a key moves it.
    bases: RefCell<HashMap<Pane, (u16, u16)>>,
    /// Rows of its list each pane showed in the last frame (a page).
    pages: RefCell<HashMap<Pane, usize>>,
    /// The screen the last frame was drawn on.
    pub screen: Cell<Option<Rect>>,
}

impl PaneViews {
    /// The offsets `pane` is drawn at, within what it can scroll.
    pub fn offset(&self, pane: Pane) -> (u16, u16) {
        let (x, y) = self
            .offsets
            .get(&pane)
            .copied()
            .unwrap_or_else(|| self.bases.borrow().get(&pane).copied().unwrap_or((0, 0)));
        match self.extents.borrow().get(&pane) {
            Some((mx, my)) => (x.min(*mx), y.min(*my)),
            None => (x, y),
        }
    }

    /// Render's note of how far `pane` can scroll at its size.
    pub fn note_extent(&self, pane: Pane, max_x: u16, max_y: u16) {
        self.extents.borrow_mut().insert(pane, (max_x, max_y));
    }

    /// Render's note of how many rows of its list `pane` shows.
    pub fn note_page(&self, pane: Pane, rows: usize) {
        self.pages.borrow_mut().insert(pane, rows);
    }

    /// Rows PgUp/PgDn move in `pane`: what it showed less one, so a row
    /// stays in view from page to page; `default` before any frame.
    pub fn page(&self, pane: Pane, default: i64) -> i64 {
        match self.pages.borrow().get(&pane) {
            Some(&n) if n > 1 => n as i64 - 1,
            Some(_) => 1,
            None => default,
        }
    }

    /// Whether a key moved `pane` (else render places it).
    pub fn moved(&self, pane: Pane) -> bool {
        self.offsets.contains_key(&pane)
    }

    /// Render's note of where it placed `pane`, which keys move from.
    pub fn note_base(&self, pane: Pane, x: u16, y: u16) {
        self.bases.borrow_mut().insert(pane, (x, y));
    }

    /// Moves `pane` by `dx` columns and `dy` rows, no further than its
    /// text reaches.
    pub fn scroll(&mut self, pane: Pane, dx: i32, dy: i32) {
        let (x, y) = self.offset(pane);
        let (mx, my) = self
            .extents
            .borrow()
            .get(&pane)
            .copied()
            .unwrap_or((u16::MAX, u16::MAX));
        let clamp = |v: u16, d: i32, m: u16| (i32::from(v) + d).clamp(0, i32::from(m)) as u16;
        self.offsets
            .insert(pane, (clamp(x, dx, mx), clamp(y, dy, my)));
    }

    /// Back to the top left (the pane's content changed).
    pub fn reset(&mut self, pane: Pane) {
        self.offsets.remove(&pane);
    }
}

/// The panes, by the names scripts use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    Source,
    Registers,
    Csrs,
    Privilege,
    Ras,
    Cycles,
    Events,
    Narration,
    Vector,
    Vs,
    Reservation,
    /// The FP register file, fcsr and sstatus.FS.
    Fp,
    PtRegs,
    Backtrace,
    Memory,
    Stack,
    /// The path diff (`D`), in the left column while open.
    Diff,
}

impl Pane {
    pub const ALL: [Pane; 17] = [
        Pane::Source,
        Pane::Registers,
        Pane::Csrs,
        Pane::Privilege,
        Pane::Ras,
        Pane::Cycles,
        Pane::Events,
        Pane::Narration,
        Pane::Vector,
        Pane::Vs,
        Pane::Reservation,
        Pane::Fp,
        Pane::PtRegs,
        Pane::Backtrace,
        Pane::Memory,
        Pane::Stack,
        Pane::Diff,
    ];
    pub fn name(self) -> &'static str {
        crate::scenario::PANES[self as usize]
    }
    pub fn parse(s: &str) -> Option<Pane> {
        Pane::ALL.into_iter().find(|p| p.name() == s)
    }
}
