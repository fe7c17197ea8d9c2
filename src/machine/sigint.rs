//! A request from the user to stop a headless run (Ctrl-C). The CLI's
//! signal handler sets the flag; the run loop checks it at every block and
//! every step and stops with `Outcome::Interrupted`. No guest state depends
//! on it, so determinism holds for runs that are not interrupted.
//!
//! The TUI's own code (Esc, `q`, and the TUI's machinery that `bench`
//! drives headless) clears that flag once it has stopped what it was
//! doing. The signal alone also sets a second flag that nothing clears, so
//! a command that drives the TUI's code can still tell that the process
//! was asked to end.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};

static FLAG: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));
static SIGNALLED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// The flag a signal handler sets (`signal_hook::flag::register`).
pub fn flag() -> Arc<AtomicBool> {
    FLAG.clone()
}

/// Whether a stop was requested (by the flag, or by the signal itself).
pub fn requested() -> bool {
    FLAG.load(Ordering::Relaxed) || signalled()
}

/// The flag only the signal handler sets, never cleared.
pub fn signal_flag() -> Arc<AtomicBool> {
    SIGNALLED.clone()
}

/// Whether SIGINT reached the process (headless commands only).
pub fn signalled() -> bool {
    SIGNALLED.load(Ordering::Relaxed)
}
