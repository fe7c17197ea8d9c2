//! `wfi` (priv spec §3.3.3, §3.1.6.5): intercepted, because the hart must
//! idle in model time, not in host time, and only trapscope knows when its
//! timer fires.

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::Insn;
use crate::machine::devices::interrupt::take;
use crate::machine::devices::irq;
use crate::machine::devices::pending::mip_now;
use crate::machine::devices::pending::{WAIT_LIMIT, idle_until};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::regs::status;
use crate::machine::traps::cause;
use crate::machine::traps::trap;
use crate::trace::{GuestFault, Priv};

/// `wfi` (priv spec §3.3.3, §3.1.6.5): below M with mstatus.TW = 1, and in
/// U-mode always (trapscope's time limit is zero), it raises an illegal
/// instruction. Otherwise the hart idles until an interrupt is pending and
/// enabled in mie, whatever the global enables: model time moves to the
/// timer's deadline, charged to the model as idle cycles. If nothing could
/// ever wake it, the run ends: it waits forever.
pub(in crate::machine) fn wfi<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pc: u64,
    insn: &Insn,
    idx: Option<usize>,
) {
    let upto = idx.map_or(usize::MAX, |i| i + 1);
    let hart = uc.get_data();
    if wfi_traps(hart.priv_, hart.traps.status_extra) {
        crate::machine::retire::finish(uc, upto, None, false);
        trap::raise(uc, cause::CAUSE_ILLEGAL, pc, u64::from(insn.raw));
        return;
    }
    let awake = irq::wakes(&hart.devices.irq, mip_now(hart));
    let cmp = hart.devices.platform.clint.mtimecmp;
    let timer = hart.devices.irq.mie & irq::bit(irq::MTI) != 0 && cmp != u64::MAX;
    let why = if awake {
        None
    } else if !timer {
        Some("no interrupt is pending and enabled in mie, and no timer is armed".to_string())
    } else if cmp.saturating_sub(hart.time_value()) > WAIT_LIMIT {
        Some(format!(
            "the timer (mtimecmp {cmp:#x}) is more than 2^40 ticks away"
        ))
    } else {
        None
    };
    if let Some(why) = why {
        crate::machine::retire::finish(uc, upto, None, false);
        crate::machine::retire::fault(uc, GuestFault::WaitsForever { pc, why });
        return;
    }
    crate::machine::retire::finish(uc, upto, Some(pc + 4), false);
    if !awake {
        idle_until(uc.get_data_mut(), pc, cmp);
    }
    uc.get_data_mut().devices.irq_defer = false;
    if !take(uc, pc + 4) {
        let _ = uc.reg_write(R::PC, pc + 4);
    }
}

/// Whether `wfi` raises illegal instruction at privilege `p` (§3.1.6.5:
/// with TW = 1 below M; §3.3.3: in U-mode when S exists, unless it completes
/// within a time limit, which is zero here). `status_extra` holds TW.
pub(in crate::machine) fn wfi_traps(p: Priv, status_extra: u64) -> bool {
    p == Priv::U || (p == Priv::S && status_extra & status::TW != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wfi_traps_below_m_with_tw_and_always_in_u() {
        let tw = status::TW;
        assert!(!wfi_traps(Priv::M, 0));
        assert!(!wfi_traps(Priv::M, tw), "TW does not apply to M");
        assert!(!wfi_traps(Priv::S, 0));
        assert!(wfi_traps(Priv::S, tw));
        assert!(wfi_traps(Priv::U, 0));
        assert!(wfi_traps(Priv::U, tw));
        assert!(!wfi_traps(Priv::S, status::TSR), "only TW counts");
    }
}
