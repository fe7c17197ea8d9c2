//! Whether any interrupt could ever be taken in the hart's current state:
//! the test behind "spins forever" (a jump to itself that nothing can end).

use unicorn_engine::Unicorn;

use super::hart::Hart;
use super::observe::Observer;

/// Priv spec §3.1.6.1 and §3.1.9: interrupt i can be taken only if mie[i]
/// is set and its target mode (S when mideleg[i] is set, else M) is above
/// the current privilege, or equal to it with that mode's global enable
/// (mstatus.MIE / SIE) set. It must also be able to become pending while
/// the hart spins without writing anything: a bit already pending, or the
/// machine timer when mtimecmp is armed (not all ones). The S bits of mip
/// are written by software only (no Sstc), and the PLIC has no sources, so
/// nothing else raises one. The rule lives in `interrupt.rs`, beside the
/// delivery it predicts.
pub fn interrupt_can_wake<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) -> bool {
    super::interrupt::interrupt_possible(uc)
}
