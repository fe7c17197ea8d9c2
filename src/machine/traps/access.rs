//! Access faults belong to the guest (priv spec §3.7, table 3.6): a load,
//! store/AMO or fetch that reaches no memory raises cause 5, 7 or 1 with
//! xtval = the address and xepc = the faulting instruction, delivered like
//! any trap. The run ends only when delivery cannot work (the handler
//! itself is not there) or under `--strict-segments`.

use unicorn_engine::unicorn_const::MemType;
use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::DecodedInsn;
use crate::isa::{Insn, Op};
use crate::machine::hart::{Hart, Pending};
use crate::machine::hooks;
use crate::machine::memory::mmu::paged;
use crate::machine::observe::Observer;
use crate::machine::regs;
use crate::machine::traps::cause::{self, CAUSE_LOAD_ACCESS, CAUSE_STORE_ACCESS};
use crate::machine::traps::trap;
use crate::trace::{Access, GuestFault};

/// The address an instruction's scalar access starts at and its width, for
/// loads, stores, FP loads/stores, LR/SC and AMOs (their address is rs1).
pub fn scalar_access<D>(uc: &Unicorn<'_, D>, i: &Insn) -> Option<(u64, u64, Access)> {
    // The kind first: a register read for every other instruction of a
    // long block cost more than the fault's delivery.
    let (width, access, offset) = match i.op {
        Op::Load { width, .. } | Op::FpLoad { width } => (width, Access::Read, true),
        Op::Store { width } | Op::FpStore { width } => (width, Access::Write, true),
        Op::Lr { width } => (width, Access::Read, false),
        Op::Sc { width } => (width, Access::Write, false),
        // An AMO reads first: QEMU reports its fault as a read.
        Op::Amo { width, .. } => (width, Access::Write, false),
        _ => return None,
    };
    let base = regs::read_gpr(uc, i.rs1);
    let ea = if offset {
        base.wrapping_add(i.imm as u64)
    } else {
        base
    };
    Some((ea, u64::from(width), access))
}

/// Finds, among the instructions of the pending block not yet reported, the
/// one whose access covers `addr` (unicorn's pc in a memory hook is the
/// block's, but the registers are live, as in `on_tohost`). Under paging
/// `addr` is physical, so only its page offset is compared. Returns the
/// instruction and its own (virtual) address of the access.
pub(in crate::machine) fn find_access<O: Observer>(
    uc: &Unicorn<'_, Hart<O>>,
    access: Access,
    addr: u64,
    paged: bool,
) -> Option<(DecodedInsn, u64)> {
    let p = uc.get_data().pending.as_ref()?;
    p.block.insns[p.from..].iter().find_map(|d| {
        let i = d.insn?;
        let (ea, width, kind) = scalar_access(uc, &i)?;
        let kind_ok = kind == access || matches!(i.op, Op::Amo { .. });
        let off = if paged {
            (addr & 0xfff).wrapping_sub(ea & 0xfff) & 0xfff
        } else {
            addr.wrapping_sub(ea)
        };
        (kind_ok && off < width).then_some((*d, ea.wrapping_add(off)))
    })
}

/// Whether the handler a trap from the current mode would go to can be
/// fetched at all: under Bare translation, it must be mapped memory. With
/// paging on, a bad handler shows up as a trap loop instead.
fn handler_reachable<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    cause: u64,
) -> Option<(u64, String)> {
    let (to, handler, tvec) = trap::target(uc, cause);
    if paged(uc, to) {
        return None;
    }
    let mut b = [0u8; 2];
    uc.mem_read(handler, &mut b)
        .is_err()
        .then(|| (handler, tvec.to_string()))
}

/// The unmapped (or, under strict segments, protected) access unicorn
/// stopped at: delivers it to the guest, or returns the fault that ends the
/// run. `protected`: unicorn said PROT rather than UNMAPPED.
pub(in crate::machine) fn deliver<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    access: Access,
    addr: u64,
    pc: u64,
    protected: bool,
) -> Result<(), GuestFault> {
    let device = crate::platform::overlapping(addr, addr.saturating_add(1));
    let f = if let (true, Some(d)) = (protected, device) {
        // Without --strict-segments RAM takes every access, so a protection
        // fault is a device's: say which, not the option.
        GuestFault::Device {
            pc,
            addr,
            access,
            device: d.name.to_string(),
        }
    } else if protected {
        GuestFault::Protection { pc, addr, access }
    } else {
        GuestFault::Unmapped { pc, addr, access }
    };
    // What ran before the faulting instruction retired, whatever happens next.
    let idx = uc
        .get_data()
        .pending
        .as_ref()
        .and_then(|p| p.block.index_of(pc));
    if access == Access::Fetch {
        crate::machine::retire::finish(uc, idx.unwrap_or(usize::MAX), Some(pc), false);
    } else if idx.is_none() {
        crate::machine::retire::finish(uc, usize::MAX, Some(pc), false);
    } else {
        crate::machine::retire::finish(uc, idx.unwrap_or(0), Some(pc), true);
    }
    if uc.get_data().memory.strict_segments {
        return Err(f);
    }
    let cause = match access {
        Access::Fetch => cause::CAUSE_FETCH_ACCESS,
        Access::Read => CAUSE_LOAD_ACCESS,
        Access::Write => CAUSE_STORE_ACCESS,
    };
    if let Some((handler, tvec)) = handler_reachable(uc, cause) {
        return Err(GuestFault::Undeliverable {
            fault: Box::new(f),
            tvec,
            handler,
        });
    }
    if access == Access::Fetch {
        // Nothing at pc ran; the delivery still counts against the budget.
        uc.get_data_mut().executed += 1;
    } else {
        if idx.is_none() {
            own_block(uc, pc);
        }
        // The faulting instruction executed (as a trapping one).
        crate::machine::ext::fpflow::settled_at(uc, pending_from(uc));
        crate::machine::retire::finish(uc, 1 + pending_from(uc), None, false);
    }
    trap::raise(uc, cause, pc, addr);
    Ok(())
}

/// The first not yet reported instruction of the pending block.
fn pending_from<O: Observer>(uc: &Unicorn<'_, Hart<O>>) -> usize {
    uc.get_data().pending.as_ref().map_or(0, |p| p.from)
}

/// Makes the one instruction at `pc` the pending block (as a single step
/// does), for a trap whose instruction no block hook covered.
pub(in crate::machine) fn own_block<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    let len = crate::machine::code::smc::insn_len_at(uc, pc);
    let block = hooks::block_at(uc, pc, u32::from(len));
    crate::machine::code::smc::retranslate_fresh(uc);
    let hart = uc.get_data_mut();
    let priv_ = hart.priv_;
    hart.pending = Some(Pending {
        block,
        from: 0,
        boxed: 0,
        priv_,
    });
}

/// Unmapped or protected memory: record the access and the instruction that
/// made it (registers are live here); unicorn returns an error next, and the
/// run loop delivers it (`access::deliver`).
pub(in crate::machine) fn on_mem_fault<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    ty: MemType,
    addr: u64,
) -> bool {
    let mut access = match ty {
        MemType::FETCH_UNMAPPED | MemType::FETCH_PROT => Access::Fetch,
        MemType::WRITE_UNMAPPED | MemType::WRITE_PROT => Access::Write,
        _ => Access::Read,
    };
    let (pc, tval) = if access == Access::Fetch {
        (addr, addr)
    } else {
        let p = crate::machine::memory::mmu::data_priv(uc, uc.get_data().priv_);
        let paged = paged(uc, p);
        match find_access(uc, access, addr, paged) {
            Some((d, va)) => {
                if matches!(d.insn.map(|i| i.op), Some(Op::Amo { .. })) {
                    access = Access::Write;
                }
                (d.pc, va)
            }
            None => (uc.reg_read(R::PC).unwrap_or(0), addr),
        }
    };
    uc.get_data_mut().traps.mem_fault = Some((access, tval, pc));
    false
}
