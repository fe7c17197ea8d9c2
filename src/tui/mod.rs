//! The terminal interface (ratatui + crossterm): keys become actions, `update`
//! changes the state, and `render` draws it. The terminal is restored on
//! every way out, panics and Ctrl-C included.

pub mod action;
pub mod command;
mod error;
pub mod input;
pub mod keymap;
pub mod latency;
pub mod layout;
pub mod record;
pub mod render;
pub mod script;
pub mod search;
mod signals;
pub mod start;
pub mod state;
pub mod update;

pub use error::TuiError;

use std::cell::Cell;
use std::io::{IsTerminal, Write};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;

use crate::cost::Profile;
use crate::scenario::Scenario;
use keymap::Keymap;
use state::{AppState, Mode};
use update::Action;

/// Restores the terminal when dropped, whatever the way out.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

/// The action for a key, given what the keyboard is doing: a look-up in
/// the keymap's table (`keymap.rs`).
pub fn key_action(keys: &Keymap, mode: &Mode, k: event::KeyEvent) -> Option<Action> {
    keys.action_in(keymap::KeyMode::of_mode(mode), k)
}

pub fn run(
    scenario: Scenario,
    core: Option<Rc<Profile>>,
    autoplay: bool,
    machine: crate::machine::MachineConfig,
    history: usize,
) -> Result<(), TuiError> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(TuiError::NoTerminal);
    }
    let mut s = AppState::open(Rc::new(scenario), core, machine)?;
    s.set_history(history);
    let mut terminal = ratatui::init();
    let _guard = Guard;
    // ratatui::init restores on panic; mouse capture must go too.
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        prev(info);
    }));
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let keys = Keymap::default();
    let quit_now = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let redraw = Arc::new(AtomicBool::new(false));
    let _signals = signals::watch(tx.clone(), redraw.clone());
    spawn_reader(quit_now.clone(), tx);
    let stop = crate::machine::sigint::flag();
    let shown_progress = Rc::new(Cell::new(false));
    s.progress = Some(progress_hook(shown_progress.clone()));
    // Where the lesson is (start.rs): the machine runs there first.
    s.go_to_start();
    if autoplay && s.player.steps.is_empty() {
        s.error("this scenario has no [[script]]: nothing to autoplay");
    }
    let size = terminal.size()?;
    let mut size = (size.width, size.height);
    let mut key_at: Option<(Instant, u64)> = None;
    loop {
        if shown_progress.replace(false) || redraw.swap(false, Ordering::Relaxed) {
            // The progress line was written past ratatui, or the terminal
            // was handed to the shell and back (signals.rs): redraw it all.
            // (`Terminal::clear` would ask the terminal for the cursor
            // position, whose answer the reader thread takes.)
            let a = terminal.size()?;
            terminal.resize(ratatui::layout::Rect::new(0, 0, a.width, a.height))?;
        }
        let t = Instant::now();
        terminal.draw(|f| render::draw(f, &s))?;
        s.timing.render_us = t.elapsed().as_micros() as u64;
        if let Some((k, update_us)) = key_at.take() {
            s.timing.shown = latency::shown(k, update_us, s.timing.render_us, Instant::now());
            s.timing.update_us = update_us;
            s.timing.key_to_frame_us = s.timing.shown.2;
            // The status line then says this key's figure, not the one
            // before (only that line changes on screen).
            terminal.draw(|f| render::draw(f, &s))?;
        }
        if s.quit || quit_now.load(Ordering::Relaxed) || internal_error() {
            return done(&stop);
        }
        // Every event waiting: one batch per frame. While none comes, the
        // idle work goes on in slices (update/idle.rs), a frame drawn when
        // it changed what is on screen.
        let first = loop {
            if !s.idle_pending() {
                match rx.recv() {
                    Ok(e) => break e,
                    Err(_) => return done(&stop),
                }
            }
            match rx.recv_timeout(std::time::Duration::from_millis(1)) {
                Ok(e) => break e,
                Err(mpsc::RecvTimeoutError::Disconnected) => return done(&stop),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if s.idle_step(std::time::Duration::from_millis(3)) {
                        terminal.draw(|f| render::draw(f, &s))?;
                    }
                }
            }
            if s.quit || quit_now.load(Ordering::Relaxed) || internal_error() {
                return done(&stop);
            }
        };
        let batch: Vec<input::Stamped> = std::iter::once(first).chain(rx.try_iter()).collect();
        // An Esc read while nothing ran stops nothing.
        stop.store(false, Ordering::Relaxed);
        let h = input::handle(&mut s, &keys, &batch, &mut size, &|| {
            quit_now.load(Ordering::Relaxed)
        });
        stop.store(false, Ordering::Relaxed);
        if let Some(k) = h.key_at {
            key_at = Some((k, h.update_us));
        }
    }
}

/// A bug caught in an emulator callback stopped the machine
/// (`machine::guard`): the TUI ends, and the CLI says why.
fn internal_error() -> bool {
    crate::machine::guard::internal_error().is_some()
}

/// Leaving the TUI: the interrupt flag that q or Ctrl-C set is the TUI's,
/// not a Ctrl-C of the process (which would exit 130).
fn done(stop: &AtomicBool) -> Result<(), TuiError> {
    stop.store(false, Ordering::Relaxed);
    Ok(())
}

/// Reads terminal events into a channel, stamped; following the mode key
/// by key (`input::Typing`), it asks the keymap's table what acts at once:
/// q and Ctrl-C (outside the command line) set `quit_now` and, with Esc,
/// the machine's interrupt flag, so a long action stops at once. Ctrl-Z
/// stops the process as the terminal's own suspend key would, when a shell
/// can continue it (`signals.rs`).
fn spawn_reader(quit_now: Arc<AtomicBool>, tx: mpsc::Sender<input::Stamped>) {
    let stop = crate::machine::sigint::flag();
    std::thread::spawn(move || {
        let mut typing = input::Typing::default();
        while let Ok(ev) = event::read() {
            if let Event::Key(k) = &ev
                && typing.action(k) == Some(Action::Suspend)
            {
                if k.kind != event::KeyEventKind::Press {
                    continue;
                }
                if signals::can_stop() {
                    signals::suspend();
                    continue;
                }
                // Nobody to continue it: the key goes on, to say why it
                // does not stop (`Action::Suspend`).
            }
            if let Event::Key(k) = &ev {
                match typing.key(k) {
                    Some(keymap::Urgent::Quit) => {
                        quit_now.store(true, Ordering::Relaxed);
                        stop.store(true, Ordering::Relaxed);
                    }
                    Some(keymap::Urgent::Stop) => stop.store(true, Ordering::Relaxed),
                    None => {}
                }
            }
            if tx.send(input::Stamped::now(ev)).is_err() {
                break;
            }
        }
    });
}

/// Draws a long action's progress on the bottom row (after 150 ms) and
/// goes on unless Esc, q or Ctrl-C set the interrupt flag.
fn progress_hook(shown: Rc<Cell<bool>>) -> state::ProgressFn {
    Box::new(move |p| {
        if p.started.elapsed() >= std::time::Duration::from_millis(150) {
            let (w, h) = ratatui::crossterm::terminal::size().unwrap_or((80, 24));
            let line: String = render::status::progress_line(p)
                .chars()
                .take(w as usize)
                .collect();
            let mut out = std::io::stdout();
            let _ = ratatui::crossterm::queue!(
                out,
                ratatui::crossterm::cursor::MoveTo(0, h.saturating_sub(1)),
                ratatui::crossterm::terminal::Clear(
                    ratatui::crossterm::terminal::ClearType::CurrentLine
                ),
                ratatui::crossterm::style::Print(line)
            );
            let _ = out.flush();
            shown.set(true);
        }
        !crate::machine::sigint::requested()
    })
}

/// While the screen is too small to show the panes, only quitting acts: a
/// key must not change what the user cannot see.
pub fn acts_at(a: &Action, width: u16, height: u16) -> bool {
    !input::too_small((width, height)) || *a == Action::Quit
}
