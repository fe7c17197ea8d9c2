//! Vector instructions and vector CSRs, run by the software V unit, and the
//! sstatus.VS state machine around them (priv spec §3.1.6.6): with VS Off a
//! vector instruction or vector-CSR access is illegal; an instruction that
//! changes vector state makes VS Dirty.

use unicorn_engine::Unicorn;
use unicorn_engine::unicorn_const::Permission;

use crate::isa::{CsrOp, Insn, Op};
use crate::machine::ext::vs::{VS_DIRTY, VS_OFF, described, set_vs};
use crate::machine::hart::Hart;
use crate::machine::memory::mmu;
use crate::machine::observe::Observer;
use crate::machine::regs;
use crate::machine::traps::cause;
use crate::trace::{Access, Event, GuestFault, Priv};
use crate::vector::{self, VHost, VTrap, VUnit};

/// What the hook must do after a vector instruction or vector-CSR access.
pub enum VResult {
    Done,
    Illegal,
    /// An exception with its cause and xtval (a faulting element).
    Trap(u64, u64),
    Fault(crate::trace::GuestFault),
}

/// The hart as the V unit sees it. Its memory follows the scalar rules:
/// addresses are translated (Sv39, `mmu.rs`), memory that is not there is
/// an access fault, a store to `tohost` ends the run, and under strict
/// segments a store to read-only memory is a protection fault.
struct Host<'a, 'u, O: Observer> {
    uc: &'a mut Unicorn<'u, Hart<O>>,
    pc: u64,
    /// The privilege the accesses are made with (MPRV applied).
    priv_: Priv,
    /// Why the last failed access failed.
    err: Option<MemErr>,
}

/// Why a vector element access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MemErr {
    Page,
    Access,
    Protected,
}

impl<O: Observer> Host<'_, '_, O> {
    /// `[addr, addr + len)` split at page boundaries and translated:
    /// (physical address, offset in the access, length).
    fn pieces(
        &mut self,
        addr: u64,
        len: usize,
        access: Access,
    ) -> Result<Vec<(u64, usize, usize)>, u64> {
        let mut out = Vec::new();
        let mut off = 0usize;
        while off < len {
            let va = addr.wrapping_add(off as u64);
            let n = (len - off).min(0x1000 - (va & 0xfff) as usize);
            match mmu::translate(self.uc, va, access, self.priv_, true) {
                Ok(pa) => out.push((pa, off, n)),
                Err(e) => {
                    self.err = Some(match e {
                        mmu::XlateError::Page => MemErr::Page,
                        mmu::XlateError::Access => MemErr::Access,
                    });
                    return Err(va);
                }
            }
            off += n;
        }
        Ok(out)
    }

    /// Whether `[pa, pa + n)` is memory, and writable when `strict` asks.
    fn usable(&self, pa: u64, n: usize, write: bool) -> Result<(), MemErr> {
        let Ok(regions) = self.uc.mem_regions() else {
            return Err(MemErr::Access);
        };
        let last = pa.wrapping_add(n as u64 - 1);
        let r = regions
            .iter()
            .find(|r| r.begin <= pa && last <= r.end)
            .ok_or(MemErr::Access)?;
        let strict = self.uc.get_data().memory.strict_segments;
        if write && strict && !r.perms.contains(Permission::WRITE) {
            return Err(MemErr::Protected);
        }
        Ok(())
    }

    /// A store that covered `tohost` ends the run as a scalar one does.
    fn check_tohost(&mut self, pa: u64, n: usize) {
        let Some(t) = self.uc.get_data().traps.faults.tohost else {
            return;
        };
        if pa >= t + 8 || pa + n as u64 <= t {
            return;
        }
        let mut b = [0u8; 8];
        if self.uc.mem_read(t, &mut b).is_ok() {
            crate::machine::retire::on_tohost_value(self.uc, u64::from_le_bytes(b), self.pc);
        }
    }
}

impl<O: Observer> VHost for Host<'_, '_, O> {
    fn x(&self, r: u8) -> u64 {
        regs::read_gpr(self.uc, r)
    }
    fn set_x(&mut self, r: u8, v: u64) {
        regs::write_gpr(self.uc, r, v);
    }
    fn load(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), u64> {
        for (pa, off, n) in self.pieces(addr, buf.len(), Access::Read)? {
            if self.uc.mem_read(pa, &mut buf[off..off + n]).is_err() {
                self.err = Some(MemErr::Access);
                return Err(addr.wrapping_add(off as u64));
            }
        }
        Ok(())
    }
    fn store(&mut self, addr: u64, data: &[u8]) -> Result<(), u64> {
        let pieces = self.pieces(addr, data.len(), Access::Write)?;
        // Nothing is written unless all of it can be.
        for &(pa, off, n) in &pieces {
            if let Err(e) = self.usable(pa, n, true) {
                self.err = Some(e);
                return Err(addr.wrapping_add(off as u64));
            }
        }
        for (pa, off, n) in pieces {
            if self.uc.mem_write(pa, &data[off..off + n]).is_err() {
                self.err = Some(MemErr::Access);
                return Err(addr.wrapping_add(off as u64));
            }
            self.check_tohost(pa, n);
            crate::machine::code::smc::code_written(self.uc, pa, n as u64, None);
        }
        Ok(())
    }
}

/// Runs a vector instruction.
pub fn run_vector<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, insn: &Insn) -> VResult {
    if uc.get_data().ext.vs == VS_OFF {
        return VResult::Illegal;
    }
    let Some(mut unit) = uc.get_data_mut().ext.vunit.take() else {
        return VResult::Fault(crate::trace::GuestFault::Unsupported {
            pc,
            encoding: insn.raw,
            why: "no V 1.0 unit on this core (x280 and x60 have one; the C910's XTheadVector is not run)".into(),
            place: uc.get_data().traps.faults.describe(pc),
        });
    };
    let priv_ = mmu::data_priv(uc, uc.get_data().priv_);
    let mut host = Host {
        uc,
        pc,
        priv_,
        err: None,
    };
    let out = vector::decode(insn.raw).and_then(|vi| unit.execute(&vi, &mut host));
    let err = host.err;
    let hart = uc.get_data_mut();
    let resumable = unit.vstart != 0;
    hart.ext.vunit = Some(unit);
    match out {
        Ok(effect) => {
            hart.emit(Event::Vector {
                pc,
                class: effect.class,
                written: effect.written,
                raw: insn.raw,
            });
            if effect.dirties {
                set_vs(hart, VS_DIRTY, pc, |h| {
                    format!("{} changes vector state", described(h, insn, pc))
                });
            }
            VResult::Done
        }
        Err(VTrap::Illegal(_)) => VResult::Illegal,
        Err(VTrap::Memory { addr, store }) => {
            // V spec §7.7 ("Exception handling"): vstart names the faulting
            // element and the ones before it are done: vector state changed.
            if resumable {
                set_vs(hart, VS_DIRTY, pc, |h| {
                    format!("{} stops at a faulting element", described(h, insn, pc))
                });
            }
            let access = if store { Access::Write } else { Access::Read };
            let strict = hart.memory.strict_segments;
            match err {
                Some(MemErr::Page) => VResult::Trap(if store { 15 } else { 13 }, addr),
                Some(MemErr::Protected) => {
                    VResult::Fault(GuestFault::Protection { pc, addr, access })
                }
                _ if strict => VResult::Fault(GuestFault::Unmapped { pc, addr, access }),
                _ => VResult::Trap(
                    if store {
                        cause::CAUSE_STORE_ACCESS
                    } else {
                        cause::CAUSE_LOAD_ACCESS
                    },
                    addr,
                ),
            }
        }
        Err(VTrap::Unsupported(why)) => VResult::Fault(GuestFault::Unsupported {
            pc,
            encoding: insn.raw,
            why,
            place: uc.get_data().traps.faults.describe(pc),
        }),
    }
}

/// Runs a CSR instruction on a vector CSR (V spec §3).
pub fn run_vector_csr<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, insn: &Insn) -> VResult {
    let Op::Csr(op) = insn.op else {
        return VResult::Illegal;
    };
    if uc.get_data().ext.vs == VS_OFF || uc.get_data().ext.vunit.is_none() {
        return VResult::Illegal;
    }
    let writes = crate::machine::traps::csr_rules::writes(insn);
    let src = match op {
        CsrOp::Rwi | CsrOp::Rsi | CsrOp::Rci => u64::from(insn.rs1),
        _ => regs::read_gpr(uc, insn.rs1),
    };
    let hart = uc.get_data_mut();
    let Some(unit) = hart.ext.vunit.as_mut() else {
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
        set_vs(hart, VS_DIRTY, pc, |h| {
            format!("{} writes a vector CSR", described(h, insn, pc))
        });
    }
    regs::write_gpr(uc, insn.rd, old);
    VResult::Done
}

/// A fresh unit of `vlen` bits.
pub fn unit(vlen: u32) -> Option<VUnit> {
    (vlen >= 64 && vlen.is_power_of_two()).then(|| VUnit::new(vlen))
}
