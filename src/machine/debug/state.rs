//! The debug sub-room's part of the hart's state: the trigger (its CSRs and
//! their WARL rules), the watchpoints and their hits, and where the kernel
//! saved its trap frames. Types only; the hooks that act on them are in the
//! sibling files.

use std::collections::VecDeque;

/// The debugger's state in the hart.
#[derive(Default)]
pub(in crate::machine) struct DebugState {
    /// The debug trigger (tselect/tdata1/tdata2).
    pub trigger: Trigger,
    /// Watchpoints (`watch.rs`).
    pub watch: WatchState,
    /// Where the kernel saved its trap frames (`frames.rs`).
    pub saves: Saves,
}

pub const TSELECT: u16 = 0x7a0;

pub const TDATA1: u16 = 0x7a1;

pub const TDATA2: u16 = 0x7a2;

pub const TINFO: u16 = 0x7a4;

/// tdata1.type = 2 (mcontrol), bits XLEN-1:XLEN-4.
pub(in crate::machine) const TYPE_MCONTROL: u64 = 2 << 60;

pub(in crate::machine) const M: u64 = 1 << 6;

pub(in crate::machine) const S: u64 = 1 << 4;

pub(in crate::machine) const U: u64 = 1 << 3;

pub(in crate::machine) const EXECUTE: u64 = 1 << 2;

pub(in crate::machine) const STORE: u64 = 1 << 1;

pub(in crate::machine) const LOAD: u64 = 1;

/// The fields this trigger keeps as written.
pub(in crate::machine) const KEPT: u64 = M | S | U | EXECUTE | STORE | LOAD;

/// select (19), timing (18), sizelo (17:16), action (15:12), chain (11),
/// match (10:7), sizehi (22:21): only 0 is supported in each.
pub(in crate::machine) const ZERO_ONLY: u64 =
    (3 << 21) | (1 << 19) | (1 << 18) | (3 << 16) | (0xf << 12) | (1 << 11) | (0xf << 7);

/// tinfo: version 1 (Sdtrig 1.0, bits 31:24) and info = bit 2 (type 2).
pub(in crate::machine) const TINFO_VALUE: u64 = (1 << 24) | (1 << 2);

/// The trigger's state (tselect always reads 0: there is one trigger).
#[derive(Clone, Copy, Debug, Default)]
pub struct Trigger {
    /// The mode and access bits of tdata1 (`KEPT`); the rest is implied.
    pub ctl: u64,
    pub tdata2: u64,
}

impl Trigger {
    pub fn tdata1(&self) -> u64 {
        TYPE_MCONTROL | self.ctl
    }

    /// Whether the trigger can fire at all (some access and some mode).
    pub fn armed(&self) -> bool {
        self.ctl & (EXECUTE | STORE | LOAD) != 0 && self.ctl & (M | S | U) != 0
    }

    /// A load or store trigger is armed: every instruction is checked
    /// before it runs (a code hook on all addresses).
    pub fn watches_data(&self) -> bool {
        self.armed() && self.ctl & (STORE | LOAD) != 0
    }

    /// The address an armed execute trigger watches (a code hook there
    /// checks it, so blocks run at full speed).
    pub fn exec_addr(&self) -> Option<u64> {
        (self.armed() && self.ctl & EXECUTE != 0).then_some(self.tdata2)
    }

    /// tdata1 after a write of `v` (WARL, see the module doc). dmode reads
    /// 0: only Debug Mode may set it, and this hart has none. maskmax reads
    /// 0 (no NAPOT matching); hit is not implemented (reads 0).
    pub(in crate::machine) fn legalize(v: u64) -> u64 {
        let supported = v >> 60 == 2 && v & ZERO_ONLY == 0;
        if supported { v & KEPT } else { v & (M | S | U) }
    }
}

pub fn is_trigger_csr(csr: u16) -> bool {
    matches!(csr, TSELECT | TDATA1 | TDATA2 | TINFO)
}

/// The value a pane shows for a trigger CSR.
pub fn peek(t: &Trigger, csr: u16) -> Option<u64> {
    Some(match csr {
        TSELECT => 0,
        TDATA1 => t.tdata1(),
        TDATA2 => t.tdata2,
        TINFO => TINFO_VALUE,
        _ => return None,
    })
}

/// Where the trigger's code hook sits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(in crate::machine) enum HookAt {
    /// An execute trigger: its address.
    Addr(u64),
    /// A load/store trigger: every instruction.
    All,
}

impl Trigger {
    /// `watching`: watchpoints are set (watch.rs), which check every
    /// instruction's accesses through the same hook.
    pub(in crate::machine) fn hook_at(&self, watching: bool) -> Option<HookAt> {
        if self.watches_data() || watching {
            Some(HookAt::All)
        } else {
            self.exec_addr().map(HookAt::Addr)
        }
    }
}

/// A watched range of physical memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub phys: u64,
    pub len: u64,
}

/// What a watched access did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchAccess {
    Load,
    Store,
    /// An AMO: a load and a store.
    Amo,
}

impl WatchAccess {
    pub fn name(self) -> &'static str {
        match self {
            WatchAccess::Load => "load",
            WatchAccess::Store => "store",
            WatchAccess::Amo => "amo (load and store)",
        }
    }
}

/// A watch hit: the instruction at `pc` accessed `size` bytes at `vaddr`
/// (`paddr` in physical memory), which overlap watch number `watch`;
/// `value` is what those bytes hold after the access (little-endian): the
/// value stored, or loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchHit {
    pub pc: u64,
    pub access: WatchAccess,
    pub vaddr: u64,
    pub paddr: u64,
    pub size: u64,
    pub value: u64,
    pub watch: usize,
}

impl WatchHit {
    /// One line for the status bar and reports: which watch, the pc that
    /// made the access, the access, its address and the value.
    pub fn describe(&self, p: &crate::program::Program) -> String {
        let (what, verb, prep) = match self.access {
            WatchAccess::Load => ("load", "read", "from"),
            WatchAccess::Store => ("store", "wrote", "to"),
            WatchAccess::Amo => ("AMO", "left", "at"),
        };
        // Data by symbol only inside one (or just past an unsized label):
        // the nearest symbol below a heap or stack address names nothing.
        let named = p
            .symbol_at(self.vaddr)
            .is_some_and(|(s, off)| off < s.size || (s.size == 0 && off < 0x1000));
        let mut notes = Vec::new();
        let place = if named {
            notes.push(format!("{:#x}", self.vaddr));
            p.describe(self.vaddr)
        } else {
            format!("{:#x}", self.vaddr)
        };
        if self.paddr != self.vaddr {
            notes.push(format!("physical {:#x}", self.paddr));
        }
        notes.push(format!(
            "{} byte{}",
            self.size,
            if self.size == 1 { "" } else { "s" }
        ));
        format!(
            "watch {}: the {what} at {} {verb} {:#x} {prep} {place} ({})",
            self.watch + 1,
            p.describe(self.pc),
            self.value,
            notes.join(", ")
        )
    }
}

/// The machine's watch state.
#[derive(Clone, Debug, Default)]
pub(in crate::machine) struct WatchState {
    pub watches: Vec<Watch>,
    /// Block mode stopped before the watched access at this pc, for the run
    /// loop to single-step it.
    pub step_at: Option<u64>,
    /// The access the current single step makes, checked after it.
    pub armed: Option<Armed>,
    /// The run resumed at a stop address here, which its first execution
    /// passes (`Hart::skip_once`, which the stop hook may clear before or
    /// after the watch's hook runs).
    pub resume_at: Option<u64>,
}

/// An access found before its instruction ran, with what tells afterwards
/// whether it happened.
#[derive(Clone, Copy, Debug)]
pub(in crate::machine) struct Armed {
    pub(in crate::machine) hit: WatchHit,
    pub(in crate::machine) executed: u64,
    pub(in crate::machine) trapped: u64,
    pub(in crate::machine) sc_successes: Option<u64>,
}

/// Save points kept (traps nest a few deep; older ones are long returned).
pub(in crate::machine) const KEEP: usize = 64;

/// (instructions executed before the save point, sp there), oldest first.
#[derive(Clone, Debug, Default)]
pub(in crate::machine) struct Saves {
    pub(in crate::machine) ring: VecDeque<(u64, u64)>,
    /// The save functions' address ranges (inclusive), hooked only at their
    /// save instructions, as their blocks are first decoded (`register`).
    pub(in crate::machine) ranges: Vec<(u64, u64)>,
    /// Save instructions hooked already.
    pub(in crate::machine) hooked: std::collections::BTreeSet<u64>,
}
