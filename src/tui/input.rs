//! Input per frame: no key lost, quitting first, floods bounded. A reader thread
//! reads every terminal event into a channel, so none is lost while an
//! action runs (a resize included), and acts at once on the keys the
//! keymap's table marks urgent: q and Ctrl-C quit, and Esc (like them)
//! stops a long action, through the machine's interrupt flag. Each frame
//! the loop takes every event waiting and `handle`s them as one batch:
//! - q and Ctrl-C outside the command line quit before anything else in
//!   the batch;
//! - below the minimum size (`layout::MIN_WIDTH`×`MIN_HEIGHT`) every other
//!   key and click is refused: nothing changes that the user cannot see;
//! - `b` typed k times in a row is one re-execution k instructions back;
//! - at most `MAX_MOVES` actions that move the machine run per batch; the
//!   rest are dropped, and the status line says how many.
//!
//! `handle` needs no terminal, so tests feed it events.

use std::time::Instant;

use ratatui::crossterm::event::{Event, KeyEvent, KeyEventKind, MouseButton, MouseEventKind};

pub use super::keymap::Urgent;
use super::keymap::{KeyMode, Keymap, next_mode};
use super::layout;
use super::state::{AppState, Mode};
use super::update::Action;

/// Actions that move the machine, run per batch at most.
pub const MAX_MOVES: usize = 16;

/// An event and when the reader thread read it.
#[derive(Clone, Debug)]
pub struct Stamped {
    pub at: Instant,
    pub event: Event,
}

impl Stamped {
    pub fn now(event: Event) -> Stamped {
        Stamped {
            at: Instant::now(),
            event,
        }
    }
}

/// The keyboard's mode as the reader thread follows it, key by key, through
/// the keymap's table (it cannot see the state): whether a key starts or
/// goes on typing a line (where q is a letter), and what acts at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typing {
    pub mode: Mode,
}

impl Default for Typing {
    fn default() -> Typing {
        Typing { mode: Mode::Normal }
    }
}

impl Typing {
    pub fn of(mode: &Mode) -> Typing {
        Typing { mode: mode.clone() }
    }

    /// The action `k` stands for in the mode followed.
    pub fn action(&self, k: &KeyEvent) -> Option<Action> {
        Keymap::default().action_in(KeyMode::of_mode(&self.mode), *k)
    }

    /// Follows one key; says if it must act at once.
    pub fn key(&mut self, k: &KeyEvent) -> Option<Urgent> {
        if k.kind != KeyEventKind::Press {
            return None;
        }
        let keys = Keymap::default();
        let b = keys.binding(KeyMode::of_mode(&self.mode), k)?;
        if let Some(a) = b.action(k) {
            self.mode = next_mode(&self.mode, &a);
        }
        b.urgent
    }
}

/// What one batch did.
#[derive(Clone, Debug, Default)]
pub struct Handled {
    /// When the batch's first key arrived (none: resizes and mouse moves).
    pub key_at: Option<Instant>,
    /// Microseconds spent in `update` for the batch.
    pub update_us: u64,
    /// Actions run.
    pub acted: usize,
    /// The actions the batch's keys and clicks asked for and that ran, in
    /// order (a run of `b` is one re-execution, and one `StepBack` a key).
    pub actions: Vec<Action>,
    /// Keys and clicks refused (terminal too small) or dropped (too many).
    pub refused: usize,
    pub dropped: usize,
}

pub use super::layout::too_small;

/// Handles the events read in one frame; `size` is the terminal's, kept
/// up to date by resize events; `quit_now` is the reader thread's flag
/// (q or Ctrl-C typed while the batch runs).
pub fn handle(
    s: &mut AppState,
    keys: &Keymap,
    batch: &[Stamped],
    size: &mut (u16, u16),
    quit_now: &dyn Fn() -> bool,
) -> Handled {
    let mut h = Handled {
        key_at: batch
            .iter()
            .find(|e| matches!(e.event, Event::Key(k) if k.kind == KeyEventKind::Press))
            .map(|e| e.at),
        ..Handled::default()
    };
    // q and Ctrl-C act before the keys queued ahead of them.
    let mut typing = Typing::of(&s.mode);
    for e in batch {
        if let Event::Key(k) = &e.event
            && typing.key(k) == Some(Urgent::Quit)
        {
            s.update(Action::Quit);
            h.actions.push(Action::Quit);
            return h;
        }
    }
    let mut moves = 0;
    let mut i = 0;
    while i < batch.len() {
        if quit_now() {
            s.update(Action::Quit);
            h.actions.push(Action::Quit);
            return h;
        }
        let ev = &batch[i].event;
        i += 1;
        let actions = match ev {
            Event::Resize(w, hh) => {
                *size = (*w, *hh);
                // The screen the next frame is drawn on: S-Tab and the
                // help's scrolling go by it for the rest of the batch, not
                // by the last frame's.
                s.views
                    .screen
                    .set(Some(ratatui::layout::Rect::new(0, 0, *w, *hh)));
                continue;
            }
            Event::Key(k) if k.kind == KeyEventKind::Press => {
                keys.action_in(KeyMode::of(s), *k).into_iter().collect()
            }
            Event::Mouse(m) => {
                let area = ratatui::layout::Rect::new(0, 0, size.0, size.1);
                let hit = layout::areas(area, s)
                    .into_iter()
                    .find(|(_, r)| r.contains((m.column, m.row).into()))
                    .map(|(p, _)| p);
                match (m.kind, hit) {
                    (MouseEventKind::Down(MouseButton::Left), Some(p)) => vec![Action::Focus(p)],
                    (MouseEventKind::ScrollUp, Some(p)) => vec![Action::Focus(p), Action::ScrollUp],
                    (MouseEventKind::ScrollDown, Some(p)) => {
                        vec![Action::Focus(p), Action::ScrollDown]
                    }
                    _ => vec![],
                }
            }
            _ => vec![],
        };
        for a in actions {
            if too_small(*size) && a != Action::Quit {
                h.refused += 1;
                continue;
            }
            let moving = moves_machine(&a);
            if moving && moves >= MAX_MOVES {
                h.dropped += 1;
                continue;
            }
            let t = Instant::now();
            if a == Action::StepBack && s.mode == Mode::Normal {
                // Every `b` queued right behind this one: one re-execution.
                let mut n = 1;
                while let Some(Event::Key(k)) = batch.get(i).map(|e| &e.event)
                    && k.kind == KeyEventKind::Press
                    && keys.action_in(KeyMode::of(s), *k) == Some(Action::StepBack)
                {
                    n += 1;
                    i += 1;
                }
                s.step_back_by(n);
                h.actions
                    .extend(std::iter::repeat_n(Action::StepBack, n as usize));
            } else {
                h.actions.push(a.clone());
                s.update(a);
            }
            h.update_us += t.elapsed().as_micros() as u64;
            h.acted += 1;
            if moving {
                moves += 1;
            }
            if s.quit {
                return h;
            }
        }
    }
    if h.dropped > 0 {
        s.error(format!(
            "{} keys dropped: they came faster than the actions run (at most {MAX_MOVES} moves a frame)",
            h.dropped
        ));
    }
    h
}

/// Actions that move the machine (and can take long).
pub fn moves_machine(a: &Action) -> bool {
    matches!(
        a,
        Action::Step
            | Action::StepOver
            | Action::StepOut
            | Action::Continue
            | Action::RunToTrap
            | Action::StepBack
            | Action::ReverseContinue
            | Action::Restart
            | Action::Reset
            | Action::SwitchVariant
            | Action::Advance
    )
}
