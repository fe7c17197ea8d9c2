//! The cycle model: a pipeline per core (the in-order scoreboard of
//! `inorder.rs` or the out-of-order window of `window.rs`), fed one
//! instruction at a time from per-block tables (`class.rs`), with its state
//! carried across blocks.
//!
//! Costs are kept in thousandths of a cycle (integers), so that sums are
//! exact and the same whether a block is accounted at once or instruction by
//! instruction. Caches and TLBs are not modelled: every access hits.

use super::class::{self, Bypass, Kind, Static};
use super::inorder::InOrder;
use super::profile::Profile;
use super::window::{Effects, Window};
use crate::isa::DecodedInsn;
use crate::trace::PredKind;

pub use super::ledger::{Cat, Ledger, MILLI, N_CATS};
pub use super::params::Params;

/// The pipeline's state, carried from one instruction to the next and
/// across blocks.
#[derive(Clone, Debug)]
pub enum PipeState {
    InOrder(InOrder),
    Window(Window),
}

impl PipeState {
    /// Whether the two states schedule every later instruction alike, each
    /// counted from its own `now`.
    pub fn congruent(&self, o: &PipeState) -> bool {
        match (self, o) {
            (PipeState::InOrder(a), PipeState::InOrder(b)) => a.congruent(b),
            (PipeState::Window(a), PipeState::Window(b)) => a.congruent(b),
            _ => false,
        }
    }

    /// Moves the state `d` cycles later (what `congruent` compares stays).
    pub fn shift(&mut self, d: u64) {
        match self {
            PipeState::InOrder(a) => a.shift(d),
            PipeState::Window(w) => w.shift(d),
        }
    }

    /// The pipeline's own clock: the cycle `congruent` counts from.
    pub fn now(&self) -> u64 {
        match self {
            PipeState::InOrder(a) => a.now(),
            PipeState::Window(w) => w.now(),
        }
    }
}

/// The table of one block, built once.
pub struct BlockCost {
    insns: Vec<Static>,
}

/// Where an instruction being charged stands.
#[derive(Clone, Copy, Debug)]
pub struct At {
    /// Its index in the block.
    pub i: usize,
    /// It completed (did not trap): execution went on after it.
    pub completed: bool,
    /// The control transfer went somewhere other than the next instruction.
    pub taken: bool,
    pub misp: Option<PredKind>,
}

pub struct CostModel {
    params: Params,
    bypass: Bypass,
    profile: Profile,
    /// Where `vector.waits_at` makes the scalar pipe wait for the unit,
    /// read once.
    waits: Waits,
}

/// The points `vector.waits_at` names.
#[derive(Clone, Copy, Debug, Default)]
pub struct Waits {
    pub status_write: bool,
    pub csr: bool,
    pub vsetvl: bool,
    pub vmv_x_s: bool,
}

fn m(cycles: u32) -> u64 {
    u64::from(cycles) * MILLI
}

impl CostModel {
    pub fn new(p: &Profile) -> CostModel {
        CostModel {
            params: Params::new(p),
            bypass: Bypass::new(p),
            profile: p.clone(),
            waits: {
                let at = |n: &str| class::list(&p.vector.waits_at.value).any(|x| x == n);
                Waits {
                    status_write: at("status_write"),
                    csr: at("csr"),
                    vsetvl: at("vsetvl"),
                    vmv_x_s: at("vmv.x.s"),
                }
            },
        }
    }

    /// The pipeline before the first instruction.
    pub fn start(&self) -> PipeState {
        if self.params.out_of_order {
            PipeState::Window(Window::default())
        } else {
            PipeState::InOrder(InOrder::default())
        }
    }

    pub fn build(&self, insns: &[DecodedInsn]) -> BlockCost {
        BlockCost {
            insns: insns.iter().map(|d| self.of(d)).collect(),
        }
    }

    /// What the pipeline knows of one instruction (`build`'s entries).
    pub fn of(&self, d: &DecodedInsn) -> Static {
        class::of(&self.profile, &self.bypass, d.insn.as_ref())
    }

    /// Charges instruction `at.i` of a block against the pipeline `st`:
    /// each part of its cost goes to `sink` (category, milli, and whether it
    /// is an event of its own: events without cycles, like a CSR read, come
    /// with 0; the wait a mispredict imposes on a later instruction of an
    /// out-of-order core comes as cycles without an event).
    #[inline]
    pub fn charge(
        &self,
        st: &mut PipeState,
        t: &BlockCost,
        at: At,
        sink: impl FnMut(Cat, u64, bool),
    ) {
        self.charge_insn(st, &t.insns[at.i], at, sink)
    }

    /// `charge` with the instruction's entry `s` at hand (an observer that
    /// keeps it beside its own per-instruction table).
    #[inline]
    pub fn charge_insn(
        &self,
        st: &mut PipeState,
        s: &Static,
        at: At,
        mut sink: impl FnMut(Cat, u64, bool),
    ) {
        let p = &self.params;
        if s.kind == Kind::Csr {
            let cat = if s.csr.counter {
                Cat::CounterReads
            } else if !s.csr.writes {
                Cat::CsrReads
            } else if s.csr.status {
                Cat::StatusWrites
            } else {
                Cat::CsrWrites
            };
            sink(cat, 0, true);
        }
        match s.kind {
            Kind::Div => sink(Cat::Divides, 0, true),
            Kind::Amo | Kind::Lr | Kind::Sc => sink(Cat::Atomics, 0, true),
            Kind::Fence | Kind::FenceI | Kind::SfenceVma => sink(Cat::Fences, 0, true),
            _ => {}
        }
        let control = matches!(s.kind, Kind::Branch | Kind::Jump);
        match st {
            PipeState::InOrder(io) => {
                let late = io.issue(p, s, &mut sink);
                let extra = match s.kind {
                    Kind::Csr if s.csr.flush => Some((Cat::CsrFlushes, p.csr_flush)),
                    Kind::Fence => Some((Cat::Serialisation, p.fence)),
                    Kind::FenceI => Some((Cat::Serialisation, p.fence_i)),
                    Kind::SfenceVma => Some((Cat::Serialisation, p.sfence_vma)),
                    Kind::Xret if at.completed => Some((Cat::TrapReturns, p.trap_return)),
                    _ => None,
                };
                let redirect = match at.misp {
                    // A branch that executed late (SiFive7: in M2, not AG)
                    // resolves late_advance cycles later.
                    Some(PredKind::Branch) if late => {
                        let (cat, c) = p.penalty(PredKind::Branch);
                        Some((cat, c + p.late_advance))
                    }
                    Some(k) => Some(p.penalty(k)),
                    // A taken branch ends its group when a bubble follows it
                    // or the profile says its target cannot join it.
                    None if control && at.taken && (p.taken_bubble > 0 || p.taken_ends_group) => {
                        Some((Cat::TakenBubbles, p.taken_bubble))
                    }
                    None => None,
                };
                for (cat, cycles) in [extra, redirect].into_iter().flatten() {
                    if cycles > 0 || cat != Cat::TakenBubbles {
                        sink(cat, m(cycles), true);
                    }
                    io.redirect(u64::from(cycles));
                }
            }
            PipeState::Window(w) => {
                let drain = match s.kind {
                    Kind::Csr if s.csr.writes => p.csr_write_serialises,
                    Kind::Csr => p.csr_read_serialises,
                    Kind::Amo | Kind::Lr | Kind::Sc => p.amo_serialises,
                    // ecall/ebreak trap at retire: the trap is the cost.
                    Kind::Fence => p.fence_drains,
                    Kind::Xret | Kind::Wfi => p.system_drains,
                    Kind::FenceI | Kind::SfenceVma => true,
                    _ => false,
                };
                let refetch = match s.kind {
                    Kind::Csr if drain || s.csr.flush => Some((Cat::CsrFlushes, p.csr_flush)),
                    Kind::FenceI => Some((Cat::Serialisation, p.fence_i)),
                    Kind::SfenceVma => Some((Cat::Serialisation, p.sfence_vma)),
                    _ => None,
                };
                let fx = Effects {
                    drain: drain.then_some(p.drain_dispatch),
                    refetch,
                    extra: if s.kind == Kind::Fence { p.fence } else { 0 },
                };
                let (exec, retire) = w.step(p, s, fx, &mut sink);
                if s.kind == Kind::Xret && at.completed {
                    sink(Cat::TrapReturns, m(p.trap_return), true);
                    w.redirect(u64::from(p.trap_return));
                }
                if let Some(k) = at.misp {
                    let (cat, cycles) = p.penalty(k);
                    sink(cat, 0, true);
                    // Counted from the cycle the instruction could dispatch
                    // in had it waited for nothing but its operands.
                    let at = (exec - 1 + u64::from(cycles))
                        .max(retire + u64::from(p.recover_after_retire));
                    w.hold(at, cat);
                } else if control && at.taken && p.taken_bubble > 0 {
                    sink(Cat::TakenBubbles, 0, true);
                    w.taken_bubble(p.taken_bubble);
                }
                if let Some((cat, _)) = fx.refetch {
                    sink(cat, 0, true);
                }
            }
        }
    }

    /// Takes a trap: the cost (milli) from the trapping instruction to the
    /// handler's first issue; the pipeline is empty after it.
    pub fn trap(&self, st: &mut PipeState) -> u64 {
        let c = self.params.trap_entry;
        match st {
            PipeState::InOrder(io) => {
                io.redirect(u64::from(c));
                io.quiesce();
            }
            PipeState::Window(w) => w.redirect(u64::from(c)),
        }
        m(c)
    }

    /// The cycles (milli) one event of category `c` always costs, where it
    /// has such a unit: in-order redirects, trap entries and returns. On an
    /// out-of-order core a mispredict or a flush overlaps older work, so it
    /// has none.
    pub fn unit(&self, c: Cat) -> u64 {
        let p = &self.params;
        let v = match c {
            Cat::TrapEntries => p.trap_entry,
            Cat::TrapReturns => p.trap_return,
            _ if p.out_of_order => 0,
            Cat::RasMispredicts => p.mispredict[0],
            Cat::BranchMispredicts => p.mispredict[1],
            Cat::IndirectMispredicts => p.mispredict[2],
            Cat::CsrFlushes => p.csr_flush,
            Cat::TakenBubbles => p.taken_bubble,
            _ => 0,
        };
        m(v)
    }

    /// A `wfi` waited: everything in flight finished meanwhile.
    pub fn idle(&self, st: &mut PipeState) {
        match st {
            PipeState::InOrder(io) => io.quiesce(),
            PipeState::Window(w) => w.quiesce(),
        }
    }

    /// The vector unit's occupancy for one instruction (milli), from the
    /// profile: LMUL·VLEN/DLEN cycles for arithmetic (X280: 2·LMUL, per the
    /// LLVM SiFive7 model), `vsetvl` for configuration, base + per_reg·n for
    /// whole-register moves, and one DLEN-wide beat per cycle for unit-stride
    /// accesses (an assumption).
    pub fn vector_cost(&self, class: &crate::vector::VClass) -> u64 {
        use crate::vector::VClass;
        let v = &self.profile.vector;
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
            VClass::Scalar => 1,
        };
        cycles.max(1) * MILLI
    }

    /// Where the scalar pipe waits for the vector unit (`vector.waits_at`).
    pub fn vector_waits(&self) -> Waits {
        self.waits
    }
}
