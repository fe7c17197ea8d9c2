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
//! A stop needs someone to continue the process: a job-control shell, in
//! the same session, whose `fg` sends SIGCONT. Started without one (as a
//! terminal multiplexer's or `setsid`'s own command) the process group is
//! orphaned, and the kernel stops such a group neither for the terminal's
//! suspend key nor for SIGTSTP: the TUI does as it does, and Ctrl-Z says
//! why on the status line (`Action::Suspend`).
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
            if sig == SIGTSTP && !can_stop() {
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

/// The process group and session of a process, and its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ids {
    pub ppid: i32,
    pub pgrp: i32,
    pub session: i32,
}

/// `/proc/PID/stat`'s ppid, pgrp and session (the fields after the
/// command's closing parenthesis: state, ppid, pgrp, session).
fn ids(pid: &str) -> Option<Ids> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut f = stat.get(stat.rfind(')')? + 1..)?.split_whitespace().skip(1);
    let mut next = || f.next()?.parse::<i32>().ok();
    Some(Ids {
        ppid: next()?,
        pgrp: next()?,
        session: next()?,
    })
}

/// Whether a process of `me`'s group, whose ancestors are `up` (parent
/// first), is in an orphaned group: the first ancestor outside the group
/// decides, by being in the same session (a job-control shell, which can
/// continue the group) or not; none outside it, orphaned.
pub fn orphaned(me: Ids, up: impl IntoIterator<Item = Ids>) -> bool {
    for a in up {
        if a.pgrp != me.pgrp {
            return a.session != me.session;
        }
    }
    true
}

/// Whether stopping would leave this process for someone to continue:
/// its group is not orphaned. Where `/proc` does not say, it may.
pub fn can_stop() -> bool {
    let Some(me) = ids("self") else {
        return true;
    };
    let mut up = Vec::new();
    let mut pid = me.ppid;
    // The ancestors in this process's group, and the first one outside it.
    while pid > 0 && up.len() < 64 {
        let Some(a) = ids(&pid.to_string()) else {
            return true;
        };
        up.push(a);
        if a.pgrp != me.pgrp {
            break;
        }
        pid = a.ppid;
    }
    !orphaned(me, up)
}

/// What Ctrl-Z says when it cannot stop the TUI.
pub const CANNOT_STOP: &str = "Ctrl-Z: no job-control shell to return to (trapscope was started as its own session's command, e.g. by tmux or setsid), so it goes on; q quits";

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

#[cfg(test)]
mod tests {
    use super::{Ids, orphaned};

    fn id(ppid: i32, pgrp: i32, session: i32) -> Ids {
        Ids {
            ppid,
            pgrp,
            session,
        }
    }

    #[test]
    fn a_group_is_orphaned_unless_an_ancestor_outside_it_shares_the_session() {
        // A shell's job: trapscope (group 20) under the shell (group 10),
        // both in session 10.
        assert!(!orphaned(id(10, 20, 10), [id(1, 10, 10)]));
        // `cargo run` as that job: cargo shares trapscope's group, the
        // shell above it does not.
        assert!(!orphaned(id(30, 20, 10), [id(10, 20, 10), id(1, 10, 10)]));
        // tmux's or setsid's command: it leads its own session, and its
        // parent is in another.
        assert!(orphaned(id(5, 20, 20), [id(1, 5, 5)]));
        // A shell without job control: trapscope in the shell's group,
        // the shell leading a session its parent is not in.
        assert!(orphaned(id(20, 20, 20), [id(5, 20, 20), id(1, 5, 5)]));
        // No ancestor known outside the group.
        assert!(orphaned(id(0, 20, 20), []));
    }

    #[test]
    fn this_process_reads_as_itself() {
        let me = super::ids("self").expect("/proc/self/stat");
        assert_eq!(me.ppid, std::os::unix::process::parent_id() as i32);
        assert_eq!(me.pgrp, rustix::process::getpgrp().as_raw_nonzero().get());
    }
}
