//! The last guard around every unicorn callback. A panic cannot unwind out
//! of a callback (the emulator's C frames sit between it and the run loop),
//! so the process would abort. Each callback body runs inside `shield`
//! instead: a panic there is caught, the run stops as if interrupted (every
//! later run too, through the stop flag of `sigint.rs`), and the CLI ends
//! with one internal-error line and its own exit status rather than a
//! half report.
//!
//! Guest state never should reach a panic (hook bodies use checked access);
//! this is for the bug that slipped through.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;
use std::sync::atomic::Ordering;

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::machine::hart::{Hart, Outcome};
use crate::machine::observe::Observer;

/// The first internal error, as one line.
static INTERNAL: OnceLock<String> = OnceLock::new();

thread_local! {
    /// How many shielded callback bodies this thread is inside.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Where the last panic in one of them happened (the panic hook's).
    static WHERE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs one callback body; a panic in it becomes a stop request and an
/// internal error, and the callback returns `fallback`.
pub(super) fn shield<'u, O: Observer, T>(
    uc: &mut Unicorn<'u, Hart<O>>,
    fallback: T,
    body: impl FnOnce(&mut Unicorn<'u, Hart<O>>) -> T,
) -> T {
    DEPTH.with(|d| d.set(d.get() + 1));
    let r = catch_unwind(AssertUnwindSafe(|| {
        test_panic();
        body(&mut *uc)
    }));
    DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    let payload = match r {
        Ok(v) => return v,
        Err(p) => p,
    };
    let msg = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    let at = WHERE.with(|w| w.borrow_mut().take());
    let pc = uc.reg_read(R::PC).unwrap_or(0);
    let line = match at {
        Some(at) => format!("a bug in trapscope at guest pc {pc:#x}: {msg} ({at})"),
        None => format!("a bug in trapscope at guest pc {pc:#x}: {msg}"),
    };
    let _ = INTERNAL.set(line);
    crate::machine::sigint::flag().store(true, Ordering::Relaxed);
    let hart = uc.get_data_mut();
    hart.pending = None;
    hart.run.outcome = Some(Outcome::Interrupted);
    let _ = uc.emu_stop();
    fallback
}

/// In debug builds (the tests'), `TRAPSCOPE_TEST_HOOK_PANIC=N` makes the
/// N-th shielded callback panic, so the tests can see this guard work; a
/// release build has no such switch.
#[cfg(debug_assertions)]
fn test_panic() {
    use std::sync::LazyLock;
    use std::sync::atomic::AtomicU64;
    static AT: LazyLock<Option<u64>> = LazyLock::new(|| {
        std::env::var("TRAPSCOPE_TEST_HOOK_PANIC")
            .ok()
            .and_then(|v| v.parse().ok())
    });
    static CALLS: AtomicU64 = AtomicU64::new(0);
    if let Some(n) = *AT
        && CALLS.fetch_add(1, Ordering::Relaxed) + 1 == n
    {
        panic!("TRAPSCOPE_TEST_HOOK_PANIC={n}: a panic for the tests");
    }
}

#[cfg(not(debug_assertions))]
fn test_panic() {}

/// For the process's panic hook: a panic inside a shielded callback is
/// noted (its place) and true returned, so the hook prints nothing; the
/// internal-error line says it once the run has stopped.
pub fn note_panic(info: &std::panic::PanicHookInfo<'_>) -> bool {
    if DEPTH.with(Cell::get) == 0 {
        return false;
    }
    let at = info
        .location()
        .map(|l| format!("{}:{}", l.file(), l.line()));
    WHERE.with(|w| *w.borrow_mut() = at);
    true
}

/// The internal error that stopped the runs, if one did.
pub fn internal_error() -> Option<&'static str> {
    INTERNAL.get().map(String::as_str)
}
