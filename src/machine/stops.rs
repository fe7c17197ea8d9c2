//! The hooks that stop before an address: run-until addresses and
//! breakpoints, and probes (a breakpoint exception before the instruction,
//! as a kprobe takes it).

use unicorn_engine::Unicorn;

use crate::machine::hart::{Hart, Outcome};
use crate::machine::observe::Observer;
use crate::machine::retire::{finish, pending_index};
use crate::machine::traps::cause;
use crate::machine::traps::trap;

/// A run-until address or breakpoint: stop before executing it.
pub(in crate::machine) fn on_stop_addr<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    let hart = uc.get_data_mut();
    if !hart.run.stop_addrs.contains(&pc) {
        return;
    }
    if hart.run.skip_once == Some(pc) {
        hart.run.skip_once = None;
        hart.run.passed = Some(pc);
        return;
    }
    let idx = pending_index(hart, pc);
    finish(uc, idx.unwrap_or(0), Some(pc), false);
    let hart = uc.get_data_mut();
    hart.pending = None;
    hart.run.outcome = Some(Outcome::ReachedAddr(pc));
    let _ = uc.emu_stop();
}

/// A probe: a breakpoint exception before the instruction runs, then the
/// instruction itself once the handler returns to it (as a kprobe does).
pub(in crate::machine) fn on_probe<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    let hart = uc.get_data_mut();
    if !hart.ext.probes.contains(&pc) {
        return;
    }
    // A stop asked for here (its hook is younger than this one): the hart
    // arrives before the probe fires, as a single step would show it.
    if hart.run.stop_addrs.contains(&pc)
        && hart.run.skip_once != Some(pc)
        && hart.run.passed != Some(pc)
    {
        on_stop_addr(uc, pc);
        return;
    }
    if hart.ext.probe_resume == Some(pc) {
        hart.ext.probe_resume = None;
        return;
    }
    hart.ext.probe_resume = Some(pc);
    let idx = pending_index(uc.get_data(), pc);
    finish(uc, idx.unwrap_or(0), None, false);
    trap::deliver(uc, cause::CAUSE_BREAKPOINT, pc, pc);
}
