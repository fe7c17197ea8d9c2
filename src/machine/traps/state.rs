//! The traps sub-room's part of the hart's state: CSR shadows, the last
//! trap, what tells a trap storm or a spin from progress, and the storm
//! rule's counts. Types only; what acts on them is in the sibling files.

use std::rc::Rc;

use crate::program::Program;

/// The hart's trap and CSR state.
#[derive(Default)]
pub(in crate::machine) struct TrapState {
    /// Last value seen of each CSR, for the `old` of CSR-write events.
    pub csr_shadow: crate::machine::code::pchash::PcMap<u16, u64>,
    /// mstatus bits that unicorn's QEMU 5.0 lacks or places elsewhere and
    /// trapscope keeps itself (TSR, TW: `regs::status::SHADOWED`), merged
    /// into mstatus reads.
    pub status_extra: u64,
    /// The last trap's (cause, epc).
    pub last_trap: Option<(u64, u64)>,
    /// Instructions that raised an exception: executed, but not retired
    /// (priv spec: they do not increment minstret).
    pub trapped: u64,
    /// Trap-storm and spin detection (`fault.rs`).
    pub faults: FaultState,
    /// Trap and code-write rates, for cutting storms off (`storm.rs`).
    pub storms: Storms,
    /// Set by the memory-fault hook, read when unicorn returns its error.
    pub mem_fault: Option<(crate::trace::Access, u64, u64)>,
}

/// Deliveries of one trap (same cause, same pc) in a row, with no
/// instruction retired in between, that make a trap loop. A handler that
/// makes progress retires at least one instruction before it traps again,
/// so any N > 1 only decides how soon the loop is reported; 64 is far above
/// any legitimate re-trap of one instruction (a kernel retrying a fault
/// retires its handler each time).
pub const TRAP_LOOP_LIMIT: u32 = 64;

/// What the machine remembers to tell a storm from progress.
#[derive(Clone, Default)]
pub(in crate::machine) struct FaultState {
    /// The last delivery: cause, epc, and instructions retired before it.
    pub(in crate::machine) last: Option<(u64, u64, u64)>,
    pub(in crate::machine) repeats: u32,
    /// Symbols for the fault text.
    pub names: Option<Rc<Program>>,
    /// The address of `tohost`, for stores trapscope makes itself.
    pub tohost: Option<u64>,
}

impl FaultState {
    /// Notes a delivery; returns how many identical ones came in a row.
    pub fn note_trap(&mut self, cause: u64, epc: u64, retired: u64) -> u32 {
        let key = (cause, epc, retired);
        if self.last == Some(key) {
            self.repeats = self.repeats.saturating_add(1);
        } else {
            self.last = Some(key);
            self.repeats = 1;
        }
        self.repeats
    }

    /// `sym+off` for an address, or the address alone.
    pub fn describe(&self, pc: u64) -> String {
        match &self.names {
            Some(p) => p.describe(pc),
            None => format!("{pc:#x}"),
        }
    }
}

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

    pub(in crate::machine) fn add(&mut self, other: &StormCounts) {
        self.traps += other.traps;
        self.writes += other.writes;
        self.redecoded += other.redecoded;
        self.emulated += other.emulated;
    }

    /// "65537 traps and 12 writes over code it had run", naming only what
    /// was counted.
    pub(in crate::machine) fn describe(&self) -> String {
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
    pub(in crate::machine) start: u64,
    pub(in crate::machine) window: StormCounts,
    pub(in crate::machine) before: StormCounts,
    /// Counted but never cut off (`Machine::measure_storms`, for bench).
    pub(in crate::machine) measuring: bool,
    /// Once cut off, nothing more is counted.
    pub(in crate::machine) done: bool,
}

impl Storms {
    pub(in crate::machine) fn roll(&mut self, now: u64) {
        if now >= self.start + WINDOW {
            let w = self.window;
            self.before.add(&w);
            self.window = StormCounts::default();
            self.start = now;
        }
    }
    pub(in crate::machine) fn over(&self) -> bool {
        !self.measuring && self.window.charges() > EXTRA_PER_WINDOW
    }
    /// Everything counted since power-on.
    pub(in crate::machine) fn total(&self) -> StormCounts {
        let mut t = self.before;
        t.add(&self.window);
        t
    }
    pub(in crate::machine) fn counts(&self, now: u64) -> String {
        format!(
            "{} within {} instructions",
            self.window.describe(),
            now - self.start
        )
    }
}
