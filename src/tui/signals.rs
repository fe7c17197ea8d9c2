//! The terminal across signals. While the TUI runs the terminal is raw, on
//! the alternate screen, with the cursor hidden and mouse reporting on; a
//! signal that ends the process must leave it as it was found, and a stop
//! must hand the shell a usable terminal and take it back after.
//!
//! A thread reads the signals (signal-hook's pipe, so no work happens in a
//! handler):
//! - SIGTERM, SIGHUP, SIGINT (raw mode reads the Ctrl-C key as a key, so
//!   this one was sent by `kill`) and SIGQUIT: restore the terminal, then
//!   end as the signal's default action would, so the parent sees the
//!   signal (a shell reports 128 + its number);
//! - SIGTSTP (from `kill`, or raised by the reader thread for the Ctrl-Z
//!   key, which raw mode delivers as a key): restore, stop with the default
//!   action, and on waking take the terminal back and redraw;
//! - SIGCONT (also after a SIGSTOP, which cannot be caught): take the
//!   terminal back and redraw.
//!
//! The thread holds stdout's lock from restoring until the process ends or
//! has the terminal back, so no frame is drawn on the shell's screen.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP};
use signal_hook::iterator::{Handle, Signals};

use super::input::Stamped;

/// The signal thread, ended when dropped (the TUI's normal way out).
pub struct Watcher {
    handle: Handle,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.handle.close();
    }
}

/// Starts the thread. `redraw` asks the main loop to draw the whole screen
/// anew; the event sent on `tx` wakes it.
pub fn watch(tx: Sender<Stamped>, redraw: Arc<AtomicBool>) -> Option<Watcher> {
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT]).ok()?;
    let handle = signals.handle();
    std::thread::spawn(move || {
        for sig in signals.forever() {
            let out = std::io::stdout();
            let mut out = out.lock();
            if sig == SIGCONT {
                take_back(&mut out, &tx, &redraw);
                continue;
            }
            restore(&mut out);
            // The default action: ends the process (SIGQUIT with a core
            // where the system keeps them), or stops it until SIGCONT.
            let _ = signal_hook::low_level::emulate_default_handler(sig);
            if sig == SIGTSTP {
                take_back(&mut out, &tx, &redraw);
            } else {
                // Should the default action not have ended it.
                let _ = out.flush();
                std::process::exit(128 + sig);
            }
        }
    });
    Some(Watcher { handle })
}

/// Ctrl-Z as a key: stop as SIGTSTP from the terminal would.
pub fn suspend() {
    let _ = signal_hook::low_level::raise(SIGTSTP);
}

/// Mouse reporting off, the main screen, the cursor shown, the tty cooked
/// (crossterm keeps the mode it found and puts it back).
pub fn restore(out: &mut impl Write) {
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
    let _ = disable_raw_mode();
}

/// Raw mode, the alternate screen and mouse reporting again, and the whole
/// screen redrawn. Raw mode is left first so that the mode found now (the
/// shell's) is the one restored later.
fn take_back(out: &mut impl Write, tx: &Sender<Stamped>, redraw: &AtomicBool) {
    let _ = disable_raw_mode();
    let _ = enable_raw_mode();
    let _ = execute!(out, EnterAlternateScreen, EnableMouseCapture, cursor::Hide);
    let _ = out.flush();
    redraw.store(true, Ordering::Relaxed);
    let (w, h) = ratatui::crossterm::terminal::size().unwrap_or((80, 24));
    let _ = tx.send(Stamped::now(Event::Resize(w, h)));
}
