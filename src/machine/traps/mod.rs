//! Traps and CSRs: delivering exceptions in software, the CSR instructions
//! trapscope runs itself, access faults, and the guests that would trap or
//! spin forever.

pub(in crate::machine) mod access;
pub(in crate::machine) mod csr;
pub(in crate::machine) mod fault;
pub mod storm;
pub(in crate::machine) mod trap;

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
    pub faults: fault::FaultState,
    /// Trap and code-write rates, for cutting storms off (`storm.rs`).
    pub storms: storm::Storms,
    /// Set by the memory-fault hook, read when unicorn returns its error.
    pub mem_fault: Option<(crate::trace::Access, u64, u64)>,
}
