//! LR, SC and AMOs, run or redirected by trapscope: LR/SC are emulated so
//! that every SC's outcome has a reason (unpriv spec §8.2); AMOs run natively
//! unless the core traps them to M-mode firmware (the MIPS P8700, seed 004).

use unicorn_engine::Unicorn;

use crate::isa::{Insn, Op};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::regs;
use crate::machine::traps::cause;
use crate::trace::{Access, Event, GuestFault};

/// What the hook must do after an LR or SC.
pub enum Done {
    /// Go on at pc + 4.
    Next,
    /// Raise this exception (cause, tval).
    Trap(u64, u64),
    Fault(GuestFault),
}

fn read<O: Observer>(uc: &Unicorn<'_, Hart<O>>, addr: u64, width: u8) -> Option<u64> {
    let mut b = [0u8; 8];
    uc.mem_read(addr, &mut b[..width as usize]).ok()?;
    let v = u64::from_le_bytes(b);
    // LR.W sign-extends (unpriv spec §8.2).
    Some(if width == 4 {
        v as u32 as i32 as i64 as u64
    } else {
        v
    })
}

/// An LR/SC to no memory: the guest's access fault (cause 5 / 7, xtval =
/// the address), or the end of the run under strict segments.
fn no_memory<O: Observer>(uc: &Unicorn<'_, Hart<O>>, pc: u64, addr: u64, access: Access) -> Done {
    if uc.get_data().memory.strict_segments {
        return Done::Fault(GuestFault::Unmapped { pc, addr, access });
    }
    let cause = match access {
        Access::Read => cause::CAUSE_LOAD_ACCESS,
        _ => cause::CAUSE_STORE_ACCESS,
    };
    Done::Trap(cause, addr)
}

/// The physical address of an LR/SC: unicorn's memory API is physical,
/// so with Sv39 on the address goes through the page table (`mmu.rs`); a
/// page fault is cause 13 / 15 with xtval = the virtual address.
fn physical<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    addr: u64,
    access: Access,
) -> Result<u64, Done> {
    let p = crate::machine::memory::mmu::data_priv(uc, uc.get_data().priv_);
    match crate::machine::memory::mmu::translate(uc, addr, access, p, true) {
        Ok(pa) => Ok(pa),
        Err(crate::machine::memory::mmu::XlateError::Page) => Err(Done::Trap(
            if access == Access::Read { 13 } else { 15 },
            addr,
        )),
        Err(crate::machine::memory::mmu::XlateError::Access) => Err(Done::Trap(
            if access == Access::Read {
                cause::CAUSE_LOAD_ACCESS
            } else {
                cause::CAUSE_STORE_ACCESS
            },
            addr,
        )),
    }
}

pub fn lr<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, insn: &Insn) -> Done {
    let Op::Lr { width } = insn.op else {
        return Done::Next;
    };
    let addr = regs::read_gpr(uc, insn.rs1);
    if !addr.is_multiple_of(u64::from(width)) {
        return Done::Trap(cause::CAUSE_LOAD_MISALIGNED, addr);
    }
    let pa = match physical(uc, addr, Access::Read) {
        Ok(pa) => pa,
        Err(d) => return d,
    };
    let Some(v) = read(uc, pa, width) else {
        return no_memory(uc, pc, addr, Access::Read);
    };
    regs::write_gpr(uc, insn.rd, v);
    let hart = uc.get_data_mut();
    let remote = hart.ext.lrsc.lr(pc, addr, width);
    hart.emit(Event::Lr {
        pc,
        addr,
        size: width,
    });
    if let Some(a) = remote {
        // The second hart stores the value it read back: the data stays,
        // the reservation does not.
        let hart = uc.get_data_mut();
        hart.emit(Event::RemoteStore { addr: a });
    }
    Done::Next
}

pub fn sc<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, insn: &Insn) -> Done {
    let Op::Sc { width } = insn.op else {
        return Done::Next;
    };
    let addr = regs::read_gpr(uc, insn.rs1);
    if !addr.is_multiple_of(u64::from(width)) {
        return Done::Trap(cause::CAUSE_STORE_MISALIGNED, addr);
    }
    let (outcome, retries) = uc.get_data_mut().ext.lrsc.sc(pc, addr, width);
    if outcome.ok() {
        let pa = match physical(uc, addr, Access::Write) {
            Ok(pa) => pa,
            Err(d) => return d,
        };
        let v = regs::read_gpr(uc, insn.rs2).to_le_bytes();
        if uc.mem_write(pa, &v[..width as usize]).is_err() {
            return no_memory(uc, pc, addr, Access::Write);
        }
        crate::machine::code::smc::code_written(uc, pa, u64::from(width), None);
    }
    regs::write_gpr(uc, insn.rd, u64::from(!outcome.ok()));
    let hart = uc.get_data_mut();
    let limit = hart.ext.livelock_after;
    hart.emit(Event::Sc {
        pc,
        addr,
        outcome: outcome.clone(),
        retries,
        to_x0: insn.rd == 0,
    });
    if limit > 0 && retries >= limit {
        return Done::Fault(GuestFault::Livelock {
            pc,
            failures: retries,
            why: outcome.clone(),
        });
    }
    Done::Next
}

/// Whether the core traps this AMO to M-mode (illegal instruction).
pub fn amo_traps<O: Observer>(uc: &Unicorn<'_, Hart<O>>, insn: &Insn) -> bool {
    matches!(insn.op, Op::Amo { .. }) && uc.get_data().ext.amo_traps
}

/// The machine's LR/SC and AMO settings, and the probes placed among them.
impl<O: Observer + 'static> crate::machine::handle::Machine<O> {
    /// The core traps AMOs to M-mode firmware (MIPS P8700, seed 004).
    pub fn set_amo_traps(&mut self, on: bool) {
        self.uc.get_data_mut().ext.amo_traps = on;
    }

    /// LR/SC behaviour: xRET drops the reservation; a second hart stores to
    /// the reserved address after every `remote_every`-th LR (0: never); a
    /// run stops as a livelock after `livelock_after` failures of one SC.
    pub fn set_lrsc(&mut self, xret_clears: bool, remote_every: u64, livelock_after: u32) {
        let hart = self.uc.get_data_mut();
        hart.ext.xret_clears = xret_clears;
        hart.ext.lrsc.remote_every = remote_every;
        hart.ext.livelock_after = livelock_after;
    }

    /// The reservation state and SC statistics.
    pub fn lrsc(&self) -> &crate::atomics::Tracker {
        &self.uc.get_data().ext.lrsc
    }

    /// Places probes: a breakpoint trap to the guest before each address
    /// runs (kprobe-like). The caller checks them against LR/SC sequences.
    pub fn set_probes(&mut self, addrs: &[u64]) -> Result<(), crate::machine::error::LoadError> {
        for &a in addrs {
            self.uc
                .add_code_hook(a, a, |uc, addr, _| {
                    crate::machine::guard::shield(uc, (), |uc| {
                        crate::machine::stops::on_probe(uc, addr)
                    })
                })
                .map_err(crate::machine::handle::emu)?;
            crate::machine::code::smc::drop_translations(&mut self.uc, a, a + 4);
            self.uc.get_data_mut().ext.probes.insert(a);
        }
        Ok(())
    }
}
