//! Interrupts as the hart sees them, delivering nothing: what is pending
//! now, whether any could ever be taken, when only the timer can end a
//! wait and how model time idles to it, and where a device access sits in
//! the pending block. Below the run loop's retirement (`retire.rs`) and
//! the fault checks, which ask these; delivery is `interrupt.rs`.

use unicorn_engine::Unicorn;

use crate::isa::DecodedInsn;
use crate::isa::Op;
use crate::machine::devices::irq::{self, Enables};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::regs::{self, status};
use crate::trace::Priv;

/// mtime at instruction `k` of the pending block (all before it accounted),
/// or now when nothing is pending.
pub(in crate::machine) fn time_at<O: Observer>(hart: &Hart<O>, k: usize) -> u64 {
    let Some(p) = hart.pending.as_ref() else {
        return hart.time_value();
    };
    let n = k.saturating_sub(p.from);
    if n == 0 {
        return hart.time_value();
    }
    if hart.obs.time_ahead(0).is_some() {
        let mut v = Vec::new();
        hart.obs.costs_ahead(
            &p.block.data,
            &p.block.insns[..k.min(p.block.insns.len())],
            p.from,
            &mut v,
        );
        let milli = v.last().copied().unwrap_or(0);
        return hart
            .clock
            .time_base
            .wrapping_add(hart.obs.time_ahead(milli).unwrap_or(0));
    }
    // No core model: time counts instructions, like `cycle`.
    hart.time_value() + n as u64
}

/// The index in the pending block of the memory access to `addr` (the
/// registers are live while unicorn runs it), else the first unreported one.
pub(in crate::machine) fn access_index<O: Observer>(
    uc: &Unicorn<'_, Hart<O>>,
    addr: u64,
) -> Option<usize> {
    let p = uc.get_data().pending.as_ref()?;
    let hit = (p.from..p.block.insns.len()).find(|&i| {
        p.block.insns[i].insn.is_some_and(|x| {
            let base = regs::read_gpr(uc, x.rs1);
            match x.op {
                Op::Load { .. } | Op::Store { .. } | Op::FpLoad { .. } | Op::FpStore { .. } => {
                    base.wrapping_add(x.imm as u64) == addr
                }
                Op::Lr { .. } | Op::Sc { .. } | Op::Amo { .. } => base == addr,
                _ => false,
            }
        })
    });
    Some(hit.unwrap_or(p.from))
}

/// The global enables now.
pub(in crate::machine) fn enables<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) -> Enables {
    let ms = regs::read_csr(uc, crate::machine::traps::csr_rules::MSTATUS).unwrap_or(0);
    Enables {
        priv_: uc.get_data().priv_,
        mie: ms & status::MIE != 0,
        sie: ms & status::SIE != 0,
    }
}

/// mip as the guest reads it now.
pub(in crate::machine) fn mip_now<O: Observer>(hart: &Hart<O>) -> u64 {
    let lines = hart.devices.platform.lines(hart.time_value());
    hart.devices.irq.mip(lines)
}

/// The interrupt to take at this boundary (everything before it accounted).
pub(in crate::machine) fn due_now<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
) -> Option<(u64, Priv)> {
    let hart = uc.get_data();
    if hart.devices.irq.mie == 0 || hart.devices.irq_defer {
        return None;
    }
    let pending = mip_now(hart);
    if pending & hart.devices.irq.mie == 0 {
        return None;
    }
    let st = hart.devices.irq;
    let en = enables(uc);
    irq::select(&st, pending, en)
}

/// A device write deferred interrupt checks; they resume after an
/// instruction that always ends a translated block, or a trap.
pub(in crate::machine) fn end_defer<O: Observer>(
    hart: &mut Hart<O>,
    last: &DecodedInsn,
    next: Option<u64>,
) {
    let ends = next.is_none()
        || last
            .insn
            .is_some_and(|i| i.is_control() || matches!(i.op, Op::Csr(_) | Op::FenceI | Op::Wfi));
    if ends {
        hart.devices.irq_defer = false;
    }
}

/// Whether an interrupt could ever be taken here without the guest doing
/// anything more (for "spins forever": a loop that writes no CSR and no
/// device): one is pending and takeable now, or the timer is armed and MTI
/// takeable (§3.1.6.1 enables at the current privilege).
pub(in crate::machine) fn interrupt_possible<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) -> bool {
    let hart = uc.get_data();
    if hart.devices.irq.mie == 0 {
        return false;
    }
    let mut could = mip_now(hart);
    if hart.devices.platform.clint.mtimecmp != u64::MAX {
        could |= irq::bit(irq::MTI);
    }
    let st = hart.devices.irq;
    let (m, s) = irq::takeable(&st, enables(uc));
    (m | s) & could != 0
}

/// When a guest can only wait for the timer (nothing pending and enabled
/// now, MTI takeable at the current privilege, mtimecmp armed within
/// `wfi`'s limit and ahead): mtimecmp, the time the wait ends.
pub(in crate::machine) fn only_the_timer<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
) -> Option<u64> {
    let hart = uc.get_data();
    let cmp = hart.devices.platform.clint.mtimecmp;
    let now = hart.time_value();
    if hart.devices.irq.mie & irq::bit(irq::MTI) == 0 || cmp == u64::MAX || cmp <= now {
        return None;
    }
    if cmp - now > crate::machine::devices::pending::WAIT_LIMIT {
        return None;
    }
    if mip_now(hart) & hart.devices.irq.mie != 0 {
        return None;
    }
    let st = hart.devices.irq;
    let (m, s) = irq::takeable(&st, enables(uc));
    ((m | s) & irq::bit(irq::MTI) != 0).then_some(cmp)
}

/// The longest wait (timer ticks) trapscope idles through: about three
/// days at a 4 MHz timebase, beyond any run; a later deadline waits forever.
pub(in crate::machine) const WAIT_LIMIT: u64 = 1 << 40;

/// Moves model time forward to `ticks`: idle cycles of the `wfi`, or of a
/// jump to itself that only the timer ends (`fault::check_spin`), at `pc`.
pub(in crate::machine) fn idle_until<O: Observer>(hart: &mut Hart<O>, pc: u64, ticks: u64) {
    let now = hart.time_value();
    if ticks <= now {
        return;
    }
    // The model counts its own ticks, from the start (`time_base` before).
    if !hart
        .obs
        .idle(pc, ticks.saturating_sub(hart.clock.time_base))
    {
        // No core model: time is the cycle count, which idling advances.
        hart.clock.cycle_offset += i128::from(ticks - now);
    }
}
