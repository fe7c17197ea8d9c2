//! What a charge is for (`Cat`, the breakdown's lines) and the ledger of
//! counts and cycles by category.

use serde::Serialize;

/// Thousandths of a cycle.
pub const MILLI: u64 = 1000;

/// What a charge is for: the lines of the breakdown in reports. The first
/// ones carry cycles; the CSR counts are events without cycles of their own
/// (their cycles are in the issue and flush lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cat {
    /// One cycle per issue group (in-order) or retire group (out-of-order).
    Issue,
    /// A pair the issue width allowed but the pipes refused.
    IssueRules,
    /// Waits for an operand (load-use and other latencies).
    DataStalls,
    /// A pipe busy (out-of-order), the divider busy, the window full.
    StructuralStalls,
    /// CSR writes that flush the instructions after them.
    CsrFlushes,
    /// Drains and refetches: serialising instructions, fences.
    Serialisation,
    /// Fetch bubbles after correctly predicted taken branches and jumps.
    TakenBubbles,
    RasMispredicts,
    BranchMispredicts,
    IndirectMispredicts,
    TrapEntries,
    TrapReturns,
    /// Vector instructions: the unit's occupancy.
    VectorUnit,
    /// Cycles a `wfi` waited for the timer.
    Idle,
    CsrReads,
    CsrWrites,
    /// Writes to sstatus/mstatus/satp.
    StatusWrites,
    CounterReads,
    /// Integer divides and remainders.
    Divides,
    /// AMOs, LRs and SCs.
    Atomics,
    /// `fence`, `fence.i`, `sfence.vma`.
    Fences,
}

/// How many categories there are.
pub const N_CATS: usize = 21;

impl Cat {
    pub const ALL: [Cat; N_CATS] = [
        Cat::Issue,
        Cat::IssueRules,
        Cat::DataStalls,
        Cat::StructuralStalls,
        Cat::CsrFlushes,
        Cat::Serialisation,
        Cat::TakenBubbles,
        Cat::RasMispredicts,
        Cat::BranchMispredicts,
        Cat::IndirectMispredicts,
        Cat::TrapEntries,
        Cat::TrapReturns,
        Cat::VectorUnit,
        Cat::Idle,
        Cat::CsrReads,
        Cat::CsrWrites,
        Cat::StatusWrites,
        Cat::CounterReads,
        Cat::Divides,
        Cat::Atomics,
        Cat::Fences,
    ];

    /// The JSON key (and `check` metric name).
    pub fn key(self) -> &'static str {
        match self {
            Cat::Issue => "issue",
            Cat::IssueRules => "issue_rules",
            Cat::DataStalls => "data_stalls",
            Cat::StructuralStalls => "structural_stalls",
            Cat::CsrFlushes => "csr_flushes",
            Cat::Serialisation => "serialisation",
            Cat::TakenBubbles => "taken_bubbles",
            Cat::RasMispredicts => "ras_mispredicts",
            Cat::BranchMispredicts => "branch_mispredicts",
            Cat::IndirectMispredicts => "indirect_mispredicts",
            Cat::TrapEntries => "traps",
            Cat::TrapReturns => "trap_returns",
            Cat::VectorUnit => "vector",
            Cat::Idle => "idle",
            Cat::CsrReads => "csr_reads",
            Cat::CsrWrites => "csr_writes",
            Cat::StatusWrites => "status_writes",
            Cat::CounterReads => "counter_reads",
            Cat::Divides => "divides",
            Cat::Atomics => "atomics",
            Cat::Fences => "fences",
        }
    }

    /// Words for reports.
    pub fn label(self) -> &'static str {
        match self {
            Cat::Issue => "issue (one cycle per group)",
            Cat::IssueRules => "issue rules (pairs refused)",
            Cat::DataStalls => "data stalls (operand latency)",
            Cat::StructuralStalls => "structural stalls (pipes, divider, window)",
            Cat::CsrFlushes => "CSR-write flushes",
            Cat::Serialisation => "serialisation (drains, fences)",
            Cat::TakenBubbles => "taken-branch fetch bubbles",
            Cat::RasMispredicts => "RAS mispredicts",
            Cat::BranchMispredicts => "branch mispredicts",
            Cat::IndirectMispredicts => "indirect-jump mispredicts",
            Cat::TrapEntries => "trap entries",
            Cat::TrapReturns => "trap returns",
            Cat::VectorUnit => "vector unit",
            Cat::Idle => "idle (wfi, or a spin skipped to the timer; not counted)",
            Cat::CsrReads => "CSR reads",
            Cat::CsrWrites => "CSR writes",
            Cat::StatusWrites => "sstatus/mstatus/satp writes",
            Cat::CounterReads => "counter reads",
            Cat::Divides => "divides",
            Cat::Atomics => "AMOs, LRs and SCs",
            Cat::Fences => "fences",
        }
    }

    /// A short name for narrow panes; `None` for the categories that only
    /// count events (their cycles are in the others).
    pub fn short(self) -> Option<&'static str> {
        Some(match self {
            Cat::Issue => "issue",
            Cat::IssueRules => "rules",
            Cat::DataStalls => "data",
            Cat::StructuralStalls => "struct",
            Cat::CsrFlushes => "csr-flush",
            Cat::Serialisation => "serial",
            Cat::TakenBubbles => "bubble",
            Cat::RasMispredicts => "ras",
            Cat::BranchMispredicts => "branch",
            Cat::IndirectMispredicts => "indirect",
            Cat::TrapEntries => "trap",
            Cat::TrapReturns => "xret",
            Cat::VectorUnit => "vector",
            Cat::Idle => "idle",
            _ => return None,
        })
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Counts and cycles by category.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    pub count: [u64; N_CATS],
    pub milli: [u64; N_CATS],
}

impl Ledger {
    pub fn add(&mut self, c: Cat, milli: u64) {
        self.count[c.index()] += 1;
        self.milli[c.index()] += milli;
    }
    /// Cycles without an event of their own (a wait for earlier work).
    pub fn add_cycles(&mut self, c: Cat, milli: u64) {
        self.milli[c.index()] += milli;
    }
    pub fn count(&self, c: Cat) -> u64 {
        self.count[c.index()]
    }
    pub fn milli(&self, c: Cat) -> u64 {
        self.milli[c.index()]
    }
    pub fn total_milli(&self) -> u64 {
        self.milli.iter().sum()
    }
    pub fn minus(&self, o: &Ledger) -> Ledger {
        Ledger {
            count: std::array::from_fn(|i| self.count[i] - o.count[i]),
            milli: std::array::from_fn(|i| self.milli[i] - o.milli[i]),
        }
    }
}
