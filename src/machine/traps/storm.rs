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

use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::trace::GuestFault;

/// Instructions a count runs over.
pub const WINDOW: u64 = 1 << 20;
/// How much slower than a plain loop a guest may run.
pub const SLOWDOWN: u64 = 3;
/// What one trap costs beyond an instruction, in a plain loop's
/// instructions (an upper bound of bench's "cost per event" lines).
pub const TRAP_COST: u64 = 128;
/// What one store over decoded code costs.
pub const CODE_WRITE_COST: u64 = 512;
/// What decoding one instruction of dropped code again costs, on top.
pub const REDECODE_COST: u64 = 48;
/// What one emulated LR, SC or AMO costs.
pub const EMULATED_COST: u64 = 48;
/// The charges a window may carry: (SLOWDOWN - 1) windows' worth.
pub const EXTRA_PER_WINDOW: u64 = (SLOWDOWN - 1) * WINDOW;

/// What the rule counts: in a window, or since power-on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct StormCounts {
    pub traps: u64,
    /// Stores over code that had been decoded.
    pub writes: u64,
    /// Instructions of decoded code those stores dropped.
    pub redecoded: u64,
    /// LR, SC and AMOs run in software.
    pub emulated: u64,
}

impl StormCounts {
    /// What they cost beyond their instructions, in a plain loop's
    /// instructions, as the rule charges them.
    pub fn charges(&self) -> u64 {
        self.traps * TRAP_COST
            + self.writes * CODE_WRITE_COST
            + self.redecoded * REDECODE_COST
            + self.emulated * EMULATED_COST
    }

    fn add(&mut self, other: &StormCounts) {
        self.traps += other.traps;
        self.writes += other.writes;
        self.redecoded += other.redecoded;
        self.emulated += other.emulated;
    }

    /// "65537 traps and 12 writes over code it had run", naming only what
    /// was counted.
    fn describe(&self) -> String {
        let n = |k: u64, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        let mut parts = Vec::new();
        if self.traps > 0 {
            parts.push(n(self.traps, "trap", "traps"));
        }
        if self.writes > 0 {
            parts.push(format!(
                "{} over code it had run ({} instructions to decode again)",
                n(self.writes, "write", "writes"),
                self.redecoded
            ));
        }
        if self.emulated > 0 {
            parts.push(n(
                self.emulated,
                "emulated LR/SC/AMO",
                "emulated LR/SC/AMOs",
            ));
        }
        match parts.len() {
            0 => "nothing".to_string(),
            1 => parts.remove(0),
            _ => {
                let last = parts.pop().unwrap_or_default();
                format!("{} and {last}", parts.join(", "))
            }
        }
    }
}

/// The counts of the current window, and the totals of the windows before.
#[derive(Clone, Default)]
pub(in crate::machine) struct Storms {
    start: u64,
    window: StormCounts,
    before: StormCounts,
    /// Counted but never cut off (`Machine::measure_storms`, for bench).
    pub(in crate::machine) measuring: bool,
    /// Once cut off, nothing more is counted.
    done: bool,
}

impl Storms {
    fn roll(&mut self, now: u64) {
        if now >= self.start + WINDOW {
            let w = self.window;
            self.before.add(&w);
            self.window = StormCounts::default();
            self.start = now;
        }
    }
    fn over(&self) -> bool {
        !self.measuring && self.window.charges() > EXTRA_PER_WINDOW
    }
    /// Everything counted since power-on.
    pub(in crate::machine) fn total(&self) -> StormCounts {
        let mut t = self.before;
        t.add(&self.window);
        t
    }
    fn counts(&self, now: u64) -> String {
        format!(
            "{} within {} instructions",
            self.window.describe(),
            now - self.start
        )
    }
}

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

impl<O: Observer + 'static> crate::machine::Machine<O> {
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
