//! Whether any interrupt could ever be taken in the hart's current state:
//! the test behind "spins forever" (a jump to itself that nothing can end).

use unicorn_engine::Unicorn;

use super::hart::Hart;
use super::irq;
use super::observe::Observer;
use super::regs::{self, status};
use crate::trace::Priv;

const MSTATUS: u16 = 0x300;

/// Priv spec §3.1.6.1 and §3.1.9: interrupt i can be taken only if mie[i]
/// is set and its target mode (S when mideleg[i] is set, else M) is above
/// the current privilege, or equal to it with that mode's global enable
/// (mstatus.MIE / SIE) set (`irq::takeable`). It must also be able to
/// become pending while the hart spins without writing anything: a bit
/// already pending, or the machine timer when mtimecmp is armed (not all
/// ones). The S bits of mip are written by software only (no Sstc), and
/// the PLIC has no sources, so nothing else raises one.
pub fn interrupt_can_wake<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, cur: Priv) -> bool {
    let ms = regs::read_csr(uc, MSTATUS).unwrap_or(0);
    let en = irq::Enables {
        priv_: cur,
        mie: ms & status::MIE != 0,
        sie: ms & status::SIE != 0,
    };
    let hart = uc.get_data();
    let (to_m, to_s) = irq::takeable(&hart.irq, en);
    let mut possible = super::interrupt::mip_now(hart);
    if hart.platform.clint.mtimecmp != u64::MAX {
        possible |= irq::bit(irq::MTI);
    }
    (to_m | to_s) & possible != 0
}
