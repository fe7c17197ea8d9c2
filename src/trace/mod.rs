//! Events: what the machine reports, in the order it happened.
//!
//! The machine produces events; the observer (statistics, the RAS and branch
//! predictors, the cost model) consumes them and adds its own (mispredicts).
//! Guest faults are values here, not host errors (docs/decisions.md C8).

mod fault;
mod log;
mod sc;

pub use fault::{Access, GuestFault};
pub use log::EventLog;
pub use sc::ScOutcome;

use serde::Serialize;

/// RISC-V privilege levels, encoded as in `mstatus.MPP` (priv spec §1.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Priv {
    U = 0,
    S = 1,
    #[default]
    M = 3,
}

impl Priv {
    pub fn from_bits(b: u64) -> Priv {
        match b & 3 {
            0 => Priv::U,
            1 => Priv::S,
            _ => Priv::M,
        }
    }
    pub fn bits(self) -> u64 {
        self as u64
    }
    pub fn letter(self) -> char {
        match self {
            Priv::U => 'U',
            Priv::S => 'S',
            Priv::M => 'M',
        }
    }
}

/// Which instruction returned from a trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum XRet {
    Sret,
    Mret,
}

/// One thing that happened. `at` on [`Stamped`] says when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// `count` instructions retired in sequence from `pc` (a block in run mode,
    /// one instruction when stepping).
    Retired {
        pc: u64,
        count: u32,
        priv_: Priv,
    },
    /// A synchronous exception delivered to `to` (priv spec §3.1.6, §4.1.1).
    TrapEnter {
        cause: u64,
        from: Priv,
        to: Priv,
        epc: u64,
        tval: u64,
        handler: u64,
    },
    /// `sret`/`mret` executed (priv spec §3.3.2).
    TrapReturn {
        via: XRet,
        from: Priv,
        to: Priv,
        pc: u64,
        target: u64,
    },
    PrivChange {
        from: Priv,
        to: Priv,
        pc: u64,
    },
    CsrWrite {
        pc: u64,
        csr: u16,
        old: Option<u64>,
        new: u64,
    },
    /// A user breakpoint (not the guest's `ebreak` trap).
    Breakpoint {
        pc: u64,
    },
    /// Boxed: the fault's strings would make every event twice the size.
    GuestFault {
        fault: Box<GuestFault>,
    },
    BudgetExhausted {
        executed: u64,
    },
    /// The guest wrote `tohost`.
    Exit {
        code: u64,
        pc: u64,
    },
    /// sstatus.VS changed (priv spec §3.1.6.6), and what changed it.
    VsChange {
        from: u8,
        to: u8,
        pc: u64,
        why: String,
    },
    /// sstatus.FS changed (priv spec §3.1.6.6), read from the emulator's
    /// mstatus, and the instruction that changed it.
    FsChange {
        from: u8,
        to: u8,
        pc: u64,
        why: String,
    },
    /// An LR took a reservation.
    Lr {
        pc: u64,
        addr: u64,
        size: u8,
    },
    /// An SC and why it succeeded or failed; `retries`: consecutive failures
    /// of this SC so far.
    Sc {
        pc: u64,
        addr: u64,
        outcome: ScOutcome,
        retries: u32,
        /// Its result goes to x0: an sc there for its side effect, clearing
        /// any reservation (a kernel's trap return does this).
        to_x0: bool,
    },
    /// The simulated second hart stored to the reserved address.
    RemoteStore {
        addr: u64,
    },
    /// The V unit ran an instruction (for its cost).
    Vector {
        pc: u64,
        #[serde(skip)]
        class: crate::vector::VClass,
        written: u32,
        /// The encoding, so that the event names the instruction where the
        /// program holds no code at `pc` (a snapshot's RAM is physical).
        #[serde(skip)]
        raw: u32,
    },
    /// A predictor got a control transfer wrong (reported by the prediction
    /// observer, not the machine).
    Mispredict {
        what: PredKind,
        pc: u64,
        predicted: Option<u64>,
        actual: u64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PredKind {
    /// A return (RAS pop) to somewhere else than the RAS said.
    Return,
    /// A conditional branch the bimodal table got wrong.
    Branch,
    /// An indirect jump or call whose target the BTB did not hold.
    Indirect,
}

impl PredKind {
    pub fn name(self) -> &'static str {
        match self {
            PredKind::Return => "RAS",
            PredKind::Branch => "branch",
            PredKind::Indirect => "indirect-jump",
        }
    }
}

/// An event with the number of instructions executed before it, and its
/// number among the events that are not retired ranges (`n`): how a run
/// was cut into blocks depends on how it got there (stepping, running,
/// re-executing from a checkpoint), so only that numbering names the same
/// event whatever the way. A retired range carries the number the next
/// other event gets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stamped {
    pub at: u64,
    #[serde(skip)]
    pub n: u64,
    #[serde(flatten)]
    pub event: Event,
}

/// Event kinds, for filtering and for run-until.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    Retired,
    TrapEnter,
    TrapReturn,
    PrivChange,
    CsrWrite,
    Breakpoint,
    GuestFault,
    BudgetExhausted,
    Exit,
    Mispredict,
    VsChange,
    Vector,
    Lr,
    Sc,
    RemoteStore,
    FsChange,
}

impl Event {
    pub fn kind(&self) -> EventKind {
        match self {
            Event::Retired { .. } => EventKind::Retired,
            Event::TrapEnter { .. } => EventKind::TrapEnter,
            Event::TrapReturn { .. } => EventKind::TrapReturn,
            Event::PrivChange { .. } => EventKind::PrivChange,
            Event::CsrWrite { .. } => EventKind::CsrWrite,
            Event::Breakpoint { .. } => EventKind::Breakpoint,
            Event::GuestFault { .. } => EventKind::GuestFault,
            Event::BudgetExhausted { .. } => EventKind::BudgetExhausted,
            Event::Exit { .. } => EventKind::Exit,
            Event::Mispredict { .. } => EventKind::Mispredict,
            Event::VsChange { .. } => EventKind::VsChange,
            Event::Vector { .. } => EventKind::Vector,
            Event::Lr { .. } => EventKind::Lr,
            Event::Sc { .. } => EventKind::Sc,
            Event::RemoteStore { .. } => EventKind::RemoteStore,
            Event::FsChange { .. } => EventKind::FsChange,
        }
    }
}

impl EventKind {
    pub const ALL: [EventKind; 16] = [
        EventKind::Retired,
        EventKind::TrapEnter,
        EventKind::TrapReturn,
        EventKind::PrivChange,
        EventKind::CsrWrite,
        EventKind::Breakpoint,
        EventKind::GuestFault,
        EventKind::BudgetExhausted,
        EventKind::Exit,
        EventKind::Mispredict,
        EventKind::VsChange,
        EventKind::Vector,
        EventKind::Lr,
        EventKind::Sc,
        EventKind::RemoteStore,
        EventKind::FsChange,
    ];
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Retired => "retired",
            EventKind::TrapEnter => "trap",
            EventKind::TrapReturn => "trap-return",
            EventKind::PrivChange => "priv",
            EventKind::CsrWrite => "csr",
            EventKind::Breakpoint => "breakpoint",
            EventKind::GuestFault => "fault",
            EventKind::BudgetExhausted => "budget",
            EventKind::Exit => "exit",
            EventKind::Mispredict => "mispredict",
            EventKind::VsChange => "vs",
            EventKind::Vector => "vector",
            EventKind::Lr => "lr",
            EventKind::Sc => "sc",
            EventKind::RemoteStore => "remote-store",
            EventKind::FsChange => "fs",
        }
    }
    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// Names of the exception causes (priv spec table 3.6 / 4.2).
pub fn cause_name(cause: u64) -> &'static str {
    if cause >> 63 == 1 {
        return interrupt_name(cause & !(1 << 63));
    }
    match cause {
        0 => "instruction address misaligned",
        1 => "instruction access fault",
        2 => "illegal instruction",
        3 => "breakpoint",
        4 => "load address misaligned",
        5 => "load access fault",
        6 => "store/AMO address misaligned",
        7 => "store/AMO access fault",
        8 => "ecall from U-mode",
        9 => "ecall from S-mode",
        11 => "ecall from M-mode",
        12 => "instruction page fault",
        13 => "load page fault",
        15 => "store/AMO page fault",
        _ => "reserved",
    }
}

/// Names of the interrupt causes (xcause with the MSB set; priv spec
/// table 3.6).
pub fn interrupt_name(code: u64) -> &'static str {
    match code {
        1 => "supervisor software interrupt",
        3 => "machine software interrupt",
        5 => "supervisor timer interrupt",
        7 => "machine timer interrupt",
        9 => "supervisor external interrupt",
        11 => "machine external interrupt",
        _ => "reserved interrupt",
    }
}

/// A cause as a number: "8", or "interrupt 5" when the MSB is set.
pub fn cause_code(cause: u64) -> String {
    if cause >> 63 == 1 {
        format!("interrupt {}", cause & !(1 << 63))
    } else {
        cause.to_string()
    }
}
