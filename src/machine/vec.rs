//! Vector instructions and vector CSRs, run by the software V unit, and the
//! sstatus.VS state machine around them (priv spec §3.1.6.6): with VS Off a
//! vector instruction or vector-CSR access is illegal; an instruction that
//! changes vector state makes VS Dirty.

use unicorn_engine::Unicorn;

use super::hart::Hart;
use super::observe::Observer;
use super::regs;
use crate::isa::{CsrOp, Insn, Op};
use crate::trace::Event;
use crate::vector::{self, VHost, VTrap, VUnit};

pub const VS_OFF: u8 = 0;
pub const VS_DIRTY: u8 = 3;

/// What the hook must do after a vector instruction or vector-CSR access.
pub enum VResult {
    Done,
    Illegal,
    Fault(crate::trace::GuestFault),
}

/// Whether a CSR instruction names a vector CSR.
pub fn is_vector_csr(insn: &Insn) -> bool {
    matches!(insn.op, Op::Csr(_)) && vector::VCSRS.contains(&insn.csr)
}

/// The hart as the V unit sees it.
struct Host<'a, 'u, O: Observer> {
    uc: &'a mut Unicorn<'u, Hart<O>>,
}

impl<O: Observer> VHost for Host<'_, '_, O> {
    fn x(&self, r: u8) -> u64 {
        regs::read_gpr(self.uc, r)
    }
    fn set_x(&mut self, r: u8, v: u64) {
        regs::write_gpr(self.uc, r, v);
    }
    fn load(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), u64> {
        self.uc.mem_read(addr, buf).map_err(|_| addr)
    }
    fn store(&mut self, addr: u64, data: &[u8]) -> Result<(), u64> {
        self.uc.mem_write(addr, data).map_err(|_| addr)
    }
}

/// Sets the VS field and reports the transition with its cause.
pub fn set_vs<O: Observer>(hart: &mut Hart<O>, to: u8, pc: u64, why: String) {
    let from = hart.vs;
    if from != to {
        hart.vs = to;
        hart.emit(Event::VsChange { from, to, pc, why });
    }
}

/// Disassembly, vector instructions included.
pub fn describe(insn: &Insn, pc: u64) -> String {
    match insn.op {
        Op::Vector => vector::decode(insn.raw).map_or_else(
            |_| format!(".insn 4, {:#010x}", insn.raw),
            |v| v.to_string(),
        ),
        _ => crate::isa::disasm(insn, pc),
    }
}

/// Runs a vector instruction.
pub fn run_vector<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, insn: &Insn) -> VResult {
    if uc.get_data().vs == VS_OFF {
        return VResult::Illegal;
    }
    let Some(mut unit) = uc.get_data_mut().vunit.take() else {
        return VResult::Fault(crate::trace::GuestFault::Unsupported {
            pc,
            encoding: insn.raw,
            why: "no V 1.0 unit on this core (x280 and x60 have one; the C910's XTheadVector is not run)".into(),
        });
    };
    let out = vector::decode(insn.raw).and_then(|vi| unit.execute(&vi, &mut Host { uc }));
    let hart = uc.get_data_mut();
    hart.vunit = Some(unit);
    match out {
        Ok(effect) => {
            hart.emit(Event::Vector {
                pc,
                class: effect.class,
                written: effect.written,
            });
            if effect.dirties {
                set_vs(
                    hart,
                    VS_DIRTY,
                    pc,
                    format!("{} changes vector state", describe(insn, pc)),
                );
            }
            VResult::Done
        }
        Err(VTrap::Illegal(_)) => VResult::Illegal,
        Err(VTrap::Memory { addr, store }) => VResult::Fault(crate::trace::GuestFault::Unmapped {
            pc,
            addr,
            access: if store {
                crate::trace::Access::Write
            } else {
                crate::trace::Access::Read
            },
        }),
        Err(VTrap::Unsupported(why)) => VResult::Fault(crate::trace::GuestFault::Unsupported {
            pc,
            encoding: insn.raw,
            why,
        }),
    }
}

/// Runs a CSR instruction on a vector CSR (V spec §3).
pub fn run_vector_csr<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, insn: &Insn) -> VResult {
    let Op::Csr(op) = insn.op else {
        return VResult::Illegal;
    };
    if uc.get_data().vs == VS_OFF || uc.get_data().vunit.is_none() {
        return VResult::Illegal;
    }
    let writes = super::csr::writes(insn);
    let src = match op {
        CsrOp::Rwi | CsrOp::Rsi | CsrOp::Rci => u64::from(insn.rs1),
        _ => regs::read_gpr(uc, insn.rs1),
    };
    let hart = uc.get_data_mut();
    let Some(unit) = hart.vunit.as_mut() else {
        return VResult::Illegal;
    };
    let Some(old) = unit.read_csr(insn.csr) else {
        return VResult::Illegal;
    };
    if writes {
        let new = match op {
            CsrOp::Rw | CsrOp::Rwi => src,
            CsrOp::Rs | CsrOp::Rsi => old | src,
            CsrOp::Rc | CsrOp::Rci => old & !src,
        };
        if !unit.write_csr(insn.csr, new) {
            return VResult::Illegal; // vl, vtype, vlenb are read-only
        }
        set_vs(
            hart,
            VS_DIRTY,
            pc,
            format!("{} writes a vector CSR", describe(insn, pc)),
        );
    }
    regs::write_gpr(uc, insn.rd, old);
    VResult::Done
}

/// A fresh unit of `vlen` bits.
pub fn unit(vlen: u32) -> Option<VUnit> {
    (vlen >= 64 && vlen.is_power_of_two()).then(|| VUnit::new(vlen))
}
