//! Guest faults: how a run or a step ends early because the guest did
//! something wrong (an unmapped access, a trap loop, an instruction
//! trapscope cannot run, a spin nothing can end, a storm), as values rather
//! than host errors, each with the one line that says what happened.

use serde::Serialize;

use super::cause_name;

/// How a run or a step ended early because the guest did something wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GuestFault {
    /// An access to memory the guest does not have, not delivered as a trap
    /// (under `--strict-segments`, or as the `fault` of `Undeliverable`).
    Unmapped { pc: u64, addr: u64, access: Access },
    /// An access the ELF's segment flags forbid (only under
    /// `--strict-segments`: otherwise RAM is read/write/execute).
    Protection { pc: u64, addr: u64, access: Access },
    /// An access a device's registers do not take: an instruction fetch
    /// from one (devices are not memory, so no code runs there).
    Device {
        pc: u64,
        addr: u64,
        access: Access,
        device: String,
    },
    /// An instruction trapscope cannot run.
    Unsupported {
        pc: u64,
        encoding: u32,
        why: String,
        /// `pc` as `symbol+offset` (empty when no symbol is near).
        place: String,
    },
    /// An SC failed this many times in a row: the loop will not finish.
    Livelock {
        pc: u64,
        failures: u32,
        why: super::ScOutcome,
    },
    /// The emulator stopped for a reason we could not attribute.
    Emulator { pc: u64, error: String },
    /// The same trap at the same pc `times` times in a row with no
    /// instruction retired in between: delivery cannot make progress.
    TrapLoop {
        cause: u64,
        pc: u64,
        /// `pc` as `symbol+offset`.
        place: String,
        handler: u64,
        /// The CSR the handler address came from (`mtvec`, `stvec`).
        tvec: String,
        times: u32,
    },
    /// A fault that could not be delivered: the handler it would go to is
    /// not in memory.
    Undeliverable {
        fault: Box<GuestFault>,
        tvec: String,
        handler: u64,
    },
    /// A jump or branch to itself, taken while no interrupt is enabled
    /// that could ever end it.
    Spin { pc: u64, place: String },
    /// A `wfi` that no interrupt could ever wake (`why` says what it lacks).
    WaitsForever { pc: u64, why: String },
    /// Traps, or writes over code already run, far more often than any
    /// kernel path (machine/storm.rs): cut off instead of run to the budget.
    Storm {
        pc: u64,
        what: String,
        limit: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    Fetch,
    Read,
    Write,
}

impl std::fmt::Display for GuestFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GuestFault::Unmapped { pc, addr, access } => write!(
                f,
                "guest fault at pc {pc:#x}: {} of unmapped address {addr:#x}",
                access.noun()
            ),
            GuestFault::Protection { pc, addr, access } => write!(
                f,
                "guest fault at pc {pc:#x}: {} of protected address {addr:#x} (the ELF's segment flags forbid it under --strict-segments)",
                access.noun()
            ),
            GuestFault::Device {
                pc,
                addr,
                access,
                device,
            } => write!(
                f,
                "guest fault at pc {pc:#x}: {} of {addr:#x}, in the {device}'s registers ({})",
                access.noun(),
                if *access == Access::Fetch {
                    "a device, not memory: code cannot run there"
                } else {
                    "the device does not take this access"
                }
            ),
            GuestFault::Unsupported {
                pc,
                encoding,
                why,
                place,
            } => write!(
                f,
                "unsupported instruction at pc {pc:#x}{}: encoding {encoding:#010x} ({why})",
                named(place)
            ),
            GuestFault::Livelock { pc, failures, why } => write!(
                f,
                "livelock at pc {pc:#x}: the SC failed {failures} times in a row (last: {why})"
            ),
            GuestFault::Emulator { pc, error } => {
                write!(f, "emulator stopped at pc {pc:#x}: {error}")
            }
            GuestFault::TrapLoop {
                cause,
                pc,
                place,
                handler,
                tvec,
                times,
            } => {
                write!(
                    f,
                    "trap loop: {} at {pc:#x}{}, {times} times in a row with no instruction retired; ",
                    cause_name(*cause),
                    named(place)
                )?;
                if handler == pc {
                    write!(f, "{tvec} points at it")
                } else {
                    write!(f, "the handler ({tvec}) is {handler:#x}")
                }
            }
            GuestFault::Undeliverable {
                fault,
                tvec,
                handler,
            } => write!(
                f,
                "{fault}; it cannot be delivered: {tvec} ({handler:#x}) is not in memory"
            ),
            GuestFault::Spin { pc, place } => write!(
                f,
                "spins forever at {pc:#x}{}: a jump to itself, and no enabled interrupt could end it",
                named(place)
            ),
            GuestFault::WaitsForever { pc, why } => {
                write!(f, "waits forever at pc {pc:#x}: wfi, and {why}")
            }
            GuestFault::Storm { pc: _, what, limit } => write!(
                f,
                "cut off as a storm: {what}; trapscope ends a guest past {limit}, over 2^20 instructions (docs/measurements/speed.md)"
            ),
        }
    }
}

/// " (sym+off)" for a place that has a symbol, "" for a bare address.
fn named(place: &str) -> String {
    if place.starts_with("0x") {
        String::new()
    } else {
        format!(" ({place})")
    }
}

impl Access {
    fn noun(self) -> &'static str {
        match self {
            Access::Fetch => "instruction fetch",
            Access::Read => "load",
            Access::Write => "store",
        }
    }
}
