//! The cycle model: per-instruction class costs plus event penalties.
//!
//! Costs are kept in thousandths of a cycle (integers), so that sums are
//! exact and the same whether a block is accounted at once or instruction by
//! instruction. Multi-issue is approximated by dividing the cost of the
//! classes a core can pair (ALU, multiply, load, store, branch, jump) by the
//! issue width; nothing models which pairs are legal, caches, or TLBs.

use serde::Serialize;

use super::profile::Profile;
use crate::isa::{CsrOp, Insn, Op};
use crate::machine::DecodedInsn;
use crate::trace::PredKind;

/// Thousandths of a cycle.
pub const MILLI: u64 = 1000;

/// What a charge is for: the lines of the breakdown in reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cat {
    /// Instructions other than CSR accesses, at their class cost.
    Instructions,
    CsrReads,
    CsrWrites,
    /// Writes to sstatus/mstatus/satp, which serialise the pipeline.
    StatusWrites,
    CounterReads,
    LoadUseStalls,
    RasMispredicts,
    BranchMispredicts,
    IndirectMispredicts,
    TrapEntries,
    TrapReturns,
    /// Vector instructions: the unit's occupancy.
    VectorUnit,
    /// Cycles a `wfi` waited for the timer.
    Idle,
}

/// How many categories there are.
pub const N_CATS: usize = 13;

impl Cat {
    pub const ALL: [Cat; N_CATS] = [
        Cat::Instructions,
        Cat::CsrReads,
        Cat::CsrWrites,
        Cat::StatusWrites,
        Cat::CounterReads,
        Cat::LoadUseStalls,
        Cat::RasMispredicts,
        Cat::BranchMispredicts,
        Cat::IndirectMispredicts,
        Cat::TrapEntries,
        Cat::TrapReturns,
        Cat::VectorUnit,
        Cat::Idle,
    ];

    /// The JSON key (and `check` metric name).
    pub fn key(self) -> &'static str {
        match self {
            Cat::Instructions => "instructions",
            Cat::CsrReads => "csr_reads",
            Cat::CsrWrites => "csr_writes",
            Cat::StatusWrites => "status_writes",
            Cat::CounterReads => "counter_reads",
            Cat::LoadUseStalls => "load_use_stalls",
            Cat::RasMispredicts => "ras_mispredicts",
            Cat::BranchMispredicts => "branch_mispredicts",
            Cat::IndirectMispredicts => "indirect_mispredicts",
            Cat::TrapEntries => "traps",
            Cat::TrapReturns => "trap_returns",
            Cat::VectorUnit => "vector",
            Cat::Idle => "idle",
        }
    }

    /// Words for reports.
    pub fn label(self) -> &'static str {
        match self {
            Cat::Instructions => "instructions (class costs)",
            Cat::CsrReads => "CSR reads",
            Cat::CsrWrites => "CSR writes",
            Cat::StatusWrites => "sstatus/mstatus/satp writes",
            Cat::CounterReads => "counter reads",
            Cat::LoadUseStalls => "load-use stalls",
            Cat::RasMispredicts => "RAS mispredicts",
            Cat::BranchMispredicts => "branch mispredicts",
            Cat::IndirectMispredicts => "indirect-jump mispredicts",
            Cat::TrapEntries => "trap entries",
            Cat::TrapReturns => "trap returns",
            Cat::VectorUnit => "vector unit",
            Cat::Idle => "wfi idle",
        }
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

/// The cost table of one block, built once.
pub struct BlockCost {
    /// Category and cost of each instruction.
    base: Vec<(Cat, u32)>,
    /// Integer registers each instruction reads (0: none).
    reads: Vec<[u8; 2]>,
    /// The register a load writes (0: not a load).
    load_rd: Vec<u8>,
}

/// The registers an instruction reads, for load-use stalls.
fn reads(i: &Insn) -> [u8; 2] {
    match i.op {
        Op::Lui | Op::Auipc | Op::Jal => [0, 0],
        Op::Jalr | Op::Load { .. } | Op::FpLoad { .. } | Op::AluImm(_) | Op::Lr { .. } => {
            [i.rs1, 0]
        }
        Op::Csr(CsrOp::Rw | CsrOp::Rs | CsrOp::Rc) => [i.rs1, 0],
        Op::Branch(_)
        | Op::Store { .. }
        | Op::FpStore { .. }
        | Op::Alu(_)
        | Op::Mul(_)
        | Op::Div(_)
        | Op::Sc { .. }
        | Op::Amo { .. } => [i.rs1, i.rs2],
        _ => [0, 0],
    }
}

fn csr_writes(i: &Insn) -> bool {
    match i.op {
        Op::Csr(CsrOp::Rw | CsrOp::Rwi) => true,
        Op::Csr(_) => i.rs1 != 0,
        _ => false,
    }
}

/// Where an instruction being charged stands.
#[derive(Clone, Copy, Debug)]
pub struct At {
    /// Its index in the block.
    pub i: usize,
    /// The register the instruction before it loaded (0: none).
    pub prev_load: u8,
    /// It completed (did not trap): execution went on after it.
    pub completed: bool,
    pub misp: Option<PredKind>,
}

pub struct CostModel {
    /// Cycles (milli) of one event of each category, where it has one unit.
    pub unit: [u64; N_CATS],
    issue: u64,
    stall: u64,
    costs: super::profile::Costs,
    vector: super::profile::Vector,
    monitor: u32,
}

impl CostModel {
    pub fn new(p: &Profile) -> CostModel {
        let c = &p.core;
        let k = &p.cost;
        let mut unit = [0u64; N_CATS];
        let m = |v: u32| u64::from(v) * MILLI;
        unit[Cat::CsrReads.index()] = m(k.csr_read.value);
        unit[Cat::CsrWrites.index()] = m(k.csr_write.value);
        unit[Cat::StatusWrites.index()] = m(k.csr_status_write.value);
        unit[Cat::CounterReads.index()] = m(k.counter_read.value);
        unit[Cat::LoadUseStalls.index()] = m(c.load_use_latency.value.saturating_sub(1));
        for cat in [
            Cat::RasMispredicts,
            Cat::BranchMispredicts,
            Cat::IndirectMispredicts,
        ] {
            unit[cat.index()] = m(c.mispredict_penalty.value);
        }
        unit[Cat::TrapEntries.index()] = m(c.trap_entry.value);
        unit[Cat::TrapReturns.index()] = m(c.trap_return.value);
        CostModel {
            unit,
            issue: u64::from(c.issue_width.value.max(1)),
            stall: unit[Cat::LoadUseStalls.index()],
            costs: k.clone(),
            vector: p.vector.clone(),
            monitor: p.atomics.monitor_cycles.value,
        }
    }

    /// Category and cost (milli) of one instruction, before events.
    fn class_cost(&self, i: Option<&Insn>) -> (Cat, u64) {
        let k = &self.costs;
        let paired = |v: u32| u64::from(v) * MILLI / self.issue;
        let full = |v: u32| u64::from(v) * MILLI;
        let Some(i) = i else {
            return (Cat::Instructions, paired(k.alu.value));
        };
        let v = match i.op {
            Op::Csr(_) => {
                let cat = if matches!(i.csr, 0xc00..=0xc02 | 0xb00 | 0xb02) {
                    Cat::CounterReads
                } else if !csr_writes(i) {
                    Cat::CsrReads
                } else if matches!(i.csr, 0x100 | 0x300 | 0x180) {
                    Cat::StatusWrites
                } else {
                    Cat::CsrWrites
                };
                return (cat, self.unit[cat.index()]);
            }
            Op::Lui | Op::Auipc | Op::AluImm(_) | Op::Alu(_) => paired(k.alu.value),
            Op::Mul(_) => paired(k.mul.value),
            Op::Div(_) => full(k.div.value),
            Op::Load { .. } | Op::FpLoad { .. } => paired(k.load.value),
            Op::Store { .. } | Op::FpStore { .. } => paired(k.store.value),
            Op::Branch(_) => paired(k.branch.value),
            Op::Jal | Op::Jalr => paired(k.jump.value),
            Op::Fence => full(k.fence.value),
            Op::FenceI => full(k.fence_i.value),
            Op::Amo { .. } => full(k.amo.value),
            Op::Lr { .. } => full(k.lr.value),
            Op::Sc { .. } => full(k.sc.value) + u64::from(self.monitor) * MILLI,
            Op::Ecall | Op::Ebreak | Op::Wfi | Op::Sret | Op::Mret | Op::SfenceVma => {
                full(k.system.value)
            }
            Op::Fp => full(k.fp.value),
            // Charged when the V unit reports what it ran (`vector_cost`):
            // the occupancy depends on vtype at run time.
            Op::Vector => 0,
        };
        (Cat::Instructions, v)
    }

    pub fn build(&self, insns: &[DecodedInsn]) -> BlockCost {
        let mut base = Vec::with_capacity(insns.len());
        let mut rd = Vec::with_capacity(insns.len());
        let mut load_rd = Vec::with_capacity(insns.len());
        for d in insns {
            let (cat, v) = self.class_cost(d.insn.as_ref());
            base.push((cat, v as u32));
            rd.push(d.insn.as_ref().map_or([0, 0], reads));
            load_rd.push(match d.insn.map(|i| i.op) {
                Some(Op::Load { .. }) => d.insn.map_or(0, |i| i.rd),
                _ => 0,
            });
        }
        BlockCost {
            base,
            reads: rd,
            load_rd,
        }
    }

    /// Charges instruction `i` of a block: its class cost, a load-use stall
    /// if it reads what the instruction before it (`prev_load`) loaded, a trap
    /// return for an `sret`/`mret` that completed, and its mispredict if any.
    pub fn charge(&self, t: &BlockCost, d: &DecodedInsn, at: At, mut sink: impl FnMut(Cat, u64)) {
        let At {
            i,
            prev_load,
            completed,
            misp,
        } = at;
        let (cat, v) = t.base[i];
        sink(cat, u64::from(v));
        if prev_load != 0 && t.reads[i].contains(&prev_load) && self.stall > 0 {
            sink(Cat::LoadUseStalls, self.stall);
        }
        if completed && matches!(d.insn.map(|x| x.op), Some(Op::Sret | Op::Mret)) {
            sink(Cat::TrapReturns, self.unit[Cat::TrapReturns.index()]);
        }
        if let Some(kind) = misp {
            let cat = match kind {
                PredKind::Return => Cat::RasMispredicts,
                PredKind::Branch => Cat::BranchMispredicts,
                PredKind::Indirect => Cat::IndirectMispredicts,
            };
            sink(cat, self.unit[cat.index()]);
        }
    }

    /// The register instruction `i` loads (0: not a load).
    pub fn load_rd(t: &BlockCost, i: usize) -> u8 {
        t.load_rd[i]
    }

    /// The vector unit's occupancy for one instruction (milli), from the
    /// profile: LMUL·VLEN/DLEN cycles for arithmetic (X280: 2·LMUL, per the
    /// LLVM SiFive7 model), `vsetvl` for configuration, base + per_reg·n for
    /// whole-register moves, and one DLEN-wide beat per cycle for unit-stride
    /// accesses (an assumption).
    pub fn vector_cost(&self, class: &crate::vector::VClass) -> u64 {
        use crate::vector::VClass;
        let v = &self.vector;
        let (vlen, dlen) = (
            u64::from(v.vlen.value.max(1)),
            u64::from(v.dlen.value.max(1)),
        );
        let cycles = match *class {
            VClass::Config => u64::from(v.vsetvl.value),
            VClass::Arith { lmul_x8 } => (u64::from(lmul_x8) * vlen / (8 * dlen)).max(1),
            VClass::UnitStride { eew, vl, .. } => (vl * u64::from(eew)).div_ceil(dlen).max(1),
            VClass::WholeReg { nregs, .. } => {
                u64::from(v.whole_reg_base.value)
                    + u64::from(v.whole_reg_per_reg.value) * u64::from(nregs)
            }
            VClass::Scalar => u64::from(self.costs.alu.value),
        };
        cycles.max(1) * MILLI
    }

    /// The cost of taking a trap (milli).
    pub fn trap_entry(&self) -> u64 {
        self.unit[Cat::TrapEntries.index()]
    }
}
