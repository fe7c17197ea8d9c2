//! Guests that trap, rewrite code they already ran, or run instructions
//! trapscope must emulate, far more often than any kernel path does. Every
//! trap costs trapscope a delivery in software (a stop and a restart of the
//! emulator for an ebreak or an access fault), every such store a dropped
//! translation, and every emulated LR, SC or AMO a stop of the emulator to
//! set the pc past it, so these ran many times slower than a plain loop and
//! took minutes to reach the default budget.
//!
//! The rule (docs/measurements/speed.md): no guest runs more than `SLOWDOWN` times a
//! plain loop's time per instruction over a window of `WINDOW`
//! instructions. A trap is charged `TRAP_COST` instructions, a write over
//! decoded code `CODE_WRITE_COST` and an emulated LR/SC/AMO
//! `EMULATED_COST`: upper bounds of what `bench` measures each to cost
//! beyond the instructions run ("cost per event" in its hostile lines, an
//! assumption that `bench` checks on the host it runs on). Once a window's
//! charges pass what `SLOWDOWN` leaves (`EXTRA_PER_WINDOW`), the run ends,
//! at the next block boundary, with one line (a guest fault, exit 125),
//! long before the budget. Alone, that is more than one trap in 80
//! instructions, one rewrite in 384, or one emulated LR/SC in 16. Trap
//! paths trapscope is for take one trap per hundreds of instructions (a
//! syscall loop: one in 200), and a lock's LR/SC pair sits among tens of
//! instructions of other work.

pub use crate::machine::traps::state::{
    CODE_WRITE_COST, EMULATED_COST, EXTRA_PER_WINDOW, REDECODE_COST, SLOWDOWN, StormCounts,
    TRAP_COST, WINDOW,
};

use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::trace::GuestFault;

/// Counts one of what `f` adds; true if the window is now over the rule.
fn count<O: Observer>(hart: &mut Hart<O>, f: impl FnOnce(&mut StormCounts)) -> bool {
    if !hart.run.account || hart.traps.storms.done {
        return false; // raw runs count no instructions
    }
    let now = hart.executed;
    hart.traps.storms.roll(now);
    f(&mut hart.traps.storms.window);
    hart.traps.storms.over()
}

/// A trap (cause as in mcause) is being delivered from `epc`.
pub(in crate::machine) fn note_trap<O: Observer>(hart: &mut Hart<O>, cause: u64, epc: u64) {
    if count(hart, |c| c.traps += 1) {
        let what = format!(
            "{} (the last: {} at {})",
            hart.traps.storms.counts(hart.executed),
            crate::trace::cause_name(cause),
            place(hart, epc)
        );
        cut_off(hart, epc, what);
    }
}

/// A store at `pc`'s block dropped decoded code: `dropped` instructions of
/// it, which unicorn and trapscope decode again.
pub(in crate::machine) fn note_code_write<O: Observer>(
    hart: &mut Hart<O>,
    addr: u64,
    dropped: u64,
) {
    if count(hart, |c| {
        c.writes += 1;
        c.redecoded += dropped;
    }) {
        let pc = hart.pending.as_ref().map_or(0, |p| p.block.start);
        let what = format!(
            "{} (the last to {addr:#x})",
            hart.traps.storms.counts(hart.executed)
        );
        cut_off(hart, pc, what);
    }
}

/// An LR, SC or AMO at `pc` that trapscope ran in software.
pub(in crate::machine) fn note_emulated<O: Observer>(hart: &mut Hart<O>, pc: u64) {
    if count(hart, |c| c.emulated += 1) {
        let what = format!(
            "{} (the last at {})",
            hart.traps.storms.counts(hart.executed),
            place(hart, pc)
        );
        cut_off(hart, pc, what);
    }
}

fn cut_off<O: Observer>(hart: &mut Hart<O>, pc: u64, what: String) {
    hart.traps.storms.done = true;
    let limit = limit();
    crate::machine::traps::fault::request(hart, GuestFault::Storm { pc, what, limit });
}

/// "0x80000404 in loop+0x4", or the address alone where no symbol names it.
fn place<O: Observer>(hart: &Hart<O>, pc: u64) -> String {
    let p = hart.traps.faults.describe(pc);
    if p.starts_with("0x") {
        p
    } else {
        format!("{pc:#x} in {p}")
    }
}

/// "one trap in 64 instructions, ...": the rule's rates, from its charges.
pub fn limit() -> String {
    let every = |cost: u64| (WINDOW * cost).div_ceil(EXTRA_PER_WINDOW);
    format!(
        "one trap in {} instructions, one emulated LR/SC/AMO in {}, one rewrite of run code in {} plus {} for each instruction it drops, or a mix that costs as much",
        every(TRAP_COST),
        every(EMULATED_COST),
        every(CODE_WRITE_COST),
        every(REDECODE_COST),
    )
}

impl<O: Observer + 'static> crate::machine::handle::Machine<O> {
    /// Counts what the storm rule charges (storm.rs) and never cuts the
    /// run off: for `bench`, which measures what each costs.
    pub fn measure_storms(&mut self) {
        self.uc.get_data_mut().traps.storms.measuring = true;
    }

    /// What the storm rule has counted since power-on.
    pub fn storm_counts(&self) -> StormCounts {
        self.uc.get_data().traps.storms.total()
    }
}
