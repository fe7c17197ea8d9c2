//! Guests that trap, or rewrite code they already ran, far more often than
//! any kernel path does: an interrupt, ecall, ebreak, fault or trigger
//! every few instructions, or a store over its own decoded code each
//! iteration. Every trap costs trapscope a delivery in software and every
//! such store a dropped translation, so these ran 8–150 times slower per
//! instruction than a plain loop and took minutes to reach the default
//! budget. Past `TRAPS_PER_WINDOW` traps or `CODE_WRITES_PER_WINDOW`
//! writes over decoded code within `WINDOW` instructions the run ends, at
//! the next block boundary, with one line (a guest fault, exit 125), long
//! before the budget. Trap paths trapscope is for take one trap per
//! hundreds of instructions (a syscall loop: one in 200).

use super::hart::Hart;
use super::observe::Observer;
use crate::trace::GuestFault;

/// Instructions a count runs over.
pub const WINDOW: u64 = 1 << 20;
/// One trap (exception or interrupt) in 16 instructions.
pub const TRAPS_PER_WINDOW: u64 = WINDOW / 16;
/// One store over decoded code in 256 instructions.
pub const CODE_WRITES_PER_WINDOW: u64 = WINDOW / 256;

/// Counts in the current window.
#[derive(Clone, Default)]
pub(super) struct Storms {
    start: u64,
    traps: u64,
    writes: u64,
    /// Once cut off, nothing more is counted.
    done: bool,
}

impl Storms {
    fn roll(&mut self, now: u64) {
        if now >= self.start + WINDOW {
            *self = Storms {
                start: now,
                ..Storms::default()
            };
        }
    }
}

/// A trap (cause as in mcause) is being delivered from `epc`.
pub(super) fn note_trap<O: Observer>(hart: &mut Hart<O>, cause: u64, epc: u64) {
    if !hart.account || hart.storms.done {
        return; // raw runs count no instructions
    }
    let now = hart.executed;
    hart.storms.roll(now);
    hart.storms.traps += 1;
    if hart.storms.traps > TRAPS_PER_WINDOW {
        hart.storms.done = true;
        let interrupt = cause >> 63 == 1;
        let what = format!(
            "{} traps within {} instructions (the last {} {} at pc {epc:#x}{})",
            hart.storms.traps,
            now - hart.storms.start,
            if interrupt {
                "interrupt"
            } else {
                "exception, cause"
            },
            cause & !(1 << 63),
            place(hart, epc)
        );
        super::fault::request(hart, storm(epc, what, "one trap in 16 instructions"));
    }
}

/// A store at `pc`'s block dropped decoded code.
pub(super) fn note_code_write<O: Observer>(hart: &mut Hart<O>, addr: u64) {
    if !hart.account || hart.storms.done {
        return;
    }
    let now = hart.executed;
    hart.storms.roll(now);
    hart.storms.writes += 1;
    if hart.storms.writes > CODE_WRITES_PER_WINDOW {
        hart.storms.done = true;
        let pc = hart.pending.as_ref().map_or(0, |p| p.block.start);
        let what = format!(
            "{} writes over code it had run within {} instructions (the last to {addr:#x})",
            hart.storms.writes,
            now - hart.storms.start
        );
        super::fault::request(hart, storm(pc, what, "one in 256 instructions"));
    }
}

fn place<O: Observer>(hart: &Hart<O>, pc: u64) -> String {
    let p = hart.faults.describe(pc);
    if p.starts_with("0x") {
        String::new()
    } else {
        format!(" ({p})")
    }
}

fn storm(pc: u64, what: String, limit: &str) -> GuestFault {
    GuestFault::Storm {
        pc,
        what,
        limit: limit.into(),
    }
}
