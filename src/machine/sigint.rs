//! A request from the user to stop a headless run (Ctrl-C). The CLI's
//! signal handler sets the flag; the run loop checks it at every block and
//! every step and stops with `Outcome::Interrupted`. No guest state depends
//! on it, so determinism holds for runs that are not interrupted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};

static FLAG: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// The flag a signal handler sets (`signal_hook::flag::register`).
pub fn flag() -> Arc<AtomicBool> {
    FLAG.clone()
}

/// Whether a stop was requested.
pub fn requested() -> bool {
    FLAG.load(Ordering::Relaxed)
}
