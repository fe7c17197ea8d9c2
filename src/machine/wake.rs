//! Whether any interrupt could ever be taken in the hart's current state:
//! the test behind "spins forever" (a jump to itself that nothing can end).

use unicorn_engine::Unicorn;

use super::regs::{self, status};
use crate::trace::Priv;

const MSTATUS: u16 = 0x300;
const MIDELEG: u16 = 0x303;
const MIE: u16 = 0x304;

/// Priv spec §3.1.6.1 and §3.1.9: interrupt i can be taken only if mie[i]
/// is set and its target mode (S when mideleg[i] is set, else M) is above
/// the current privilege, or equal to it with that mode's global enable
/// (mstatus.MIE / SIE) set. Whether it ever becomes pending is not known
/// here, so any such interrupt counts as one that could end a spin.
pub fn interrupt_can_wake<D>(uc: &mut Unicorn<'_, D>, cur: Priv) -> bool {
    let mie = regs::read_csr(uc, MIE).unwrap_or(0);
    if mie == 0 {
        return false;
    }
    let mideleg = regs::read_csr(uc, MIDELEG).unwrap_or(0);
    let ms = regs::read_csr(uc, MSTATUS).unwrap_or(0);
    (0..64).filter(|i| (mie >> i) & 1 == 1).any(|i| {
        let target = if (mideleg >> i) & 1 == 1 {
            Priv::S
        } else {
            Priv::M
        };
        let global = match target {
            Priv::M => ms & status::MIE != 0,
            _ => ms & status::SIE != 0,
        };
        target > cur || (target == cur && global)
    })
}
