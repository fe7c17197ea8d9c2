//! Watchpoints: a run stops right after an instruction whose load or store
//! touched a watched range of *physical* memory, so every virtual alias of
//! it hits (with paging on, the access's virtual address goes through
//! trapscope's own Sv39 look-up, `mmu::peek`, with the privilege that data
//! accesses use: MPP under MPRV, priv spec §3.1.6.3).
//!
//! The check reuses the debug trigger's mechanism (trigger.rs): while a
//! watch is set, the trigger's code hook sits on every instruction and
//! computes its effective address before it runs. In block mode a hit
//! stops the block *before* the instruction, and the run loop then runs it
//! as one single step (`Machine::watched_step`), the same path stepping
//! takes; so block mode and stepping stop after the same instruction.
//!
//! An access is a hit only if the instruction completed: one that raised
//! an exception (a page fault, a misaligned LR), or that a probe or an
//! interrupt kept from running, made no access; nor does an SC that failed.
//! Vector loads and stores are not checked (their element addresses are
//! the V unit's).

use unicorn_engine::Unicorn;

use crate::isa::{Insn, Op};
use crate::machine::debug::state::{Armed, Watch, WatchAccess, WatchHit};
use crate::machine::handle::Machine;
use crate::machine::handle::Until;
use crate::machine::hart::{Hart, Outcome};
use crate::machine::memory::mmu;
use crate::machine::observe::Observer;
use crate::trace::Priv;

/// The watch the access `insn` at `pc` is about to make hits, if any.
pub(in crate::machine) fn check<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pc: u64,
    insn: &Insn,
) -> Option<WatchHit> {
    if uc.get_data().debug.watch.watches.is_empty() {
        return None;
    }
    let (va, size, load, store) = crate::machine::debug::trigger::accesses(uc, insn)?;
    let p = mmu::data_priv(uc, uc.get_data().priv_);
    // satp as the last retired block left it (a write ends its block), as
    // `Machine::phys_of` reads it: no privilege switch on every access.
    let satp = uc
        .get_data()
        .traps
        .csr_shadow
        .get(&0x180)
        .copied()
        .unwrap_or(0);
    let pa = if p == Priv::M || satp >> 60 != 8 {
        va
    } else {
        mmu::peek(uc, satp, va)?
    };
    let watch = uc
        .get_data()
        .debug
        .watch
        .watches
        .iter()
        .position(|w| pa < w.phys.wrapping_add(w.len) && w.phys < pa.wrapping_add(size))?;
    let access = match (load, store) {
        (true, true) => WatchAccess::Amo,
        (true, false) => WatchAccess::Load,
        _ => WatchAccess::Store,
    };
    Some(WatchHit {
        pc,
        access,
        vaddr: va,
        paddr: pa,
        size,
        value: 0,
        watch,
    })
}

/// Arms the check of a single step about to run `insn` at `pc`.
pub(in crate::machine) fn arm<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pc: u64,
    insn: Option<&Insn>,
) {
    let hit = insn.and_then(|i| check(uc, pc, i));
    let hart = uc.get_data_mut();
    hart.debug.watch.armed = hit.map(|hit| Armed {
        hit,
        executed: hart.executed,
        trapped: hart.traps.trapped,
        sc_successes: insn
            .filter(|i| matches!(i.op, Op::Sc { .. }))
            .map(|_| hart.ext.lrsc.successes),
    });
}

/// After a single step that completed: the watch hit it made, or plain
/// `Stepped`.
pub(in crate::machine) fn after_step<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) -> Outcome {
    let hart = uc.get_data_mut();
    let Some(a) = hart.debug.watch.armed.take() else {
        return Outcome::Stepped;
    };
    let ran = hart.executed == a.executed + 1 && hart.traps.trapped == a.trapped;
    let stored = a.sc_successes.is_none_or(|n| hart.ext.lrsc.successes > n);
    if !ran || !stored {
        return Outcome::Stepped;
    }
    let mut hit = a.hit;
    let n = hit.size.min(8) as usize;
    let bytes = uc.mem_read_as_vec(hit.paddr, n).unwrap_or_default();
    hit.value = bytes
        .iter()
        .rev()
        .fold(0u64, |v, b| (v << 8) | u64::from(*b));
    Outcome::Watch(hit)
}

impl<O: Observer + 'static> Machine<O> {
    /// The ranges runs and steps stop after an access to (physical
    /// addresses; `phys_of` finds the one a virtual address maps to now).
    /// Empty: no watch, and no per-instruction hook.
    pub fn set_watches(&mut self, watches: &[Watch]) {
        self.uc.get_data_mut().debug.watch.watches = watches.to_vec();
    }

    pub fn watches(&self) -> &[Watch] {
        &self.uc.get_data().debug.watch.watches
    }

    /// Block mode stopped before a watched access: run it as a single step
    /// with the run's event kinds, then go back to blocks. `Some`: the run
    /// ends with it (the watch hit, or what else the step ended with).
    pub(in crate::machine) fn watched_step(&mut self, pc: u64) -> Option<Outcome> {
        let hart = self.uc.get_data();
        let (limit, kinds, skip) = (
            hart.run.limit,
            hart.run.until_kinds.clone(),
            hart.run.skip_once,
        );
        let addrs: Vec<u64> = hart.run.stop_addrs.iter().copied().collect();
        let left = limit.saturating_sub(hart.executed);
        let o = self.go(
            &Until {
                max_insns: Some(left),
                addrs: Vec::new(),
                kinds: kinds.clone(),
            },
            true,
        );
        let hart = self.uc.get_data_mut();
        hart.run.limit = limit;
        hart.run.until_kinds = kinds;
        hart.run.stop_addrs = addrs.into_iter().collect();
        // A stop address at the stepped instruction has been passed.
        hart.run.skip_once = skip.filter(|&a| a != pc);
        hart.run.stepping = false;
        // Blocks translated for single steps would stop after each
        // instruction (run.rs): back to translations for blocks.
        let _ = self.uc.ctl_flush_tb();
        self.tb_single = Some(false);
        match o {
            Outcome::Stepped => None,
            o => Some(o),
        }
    }
}

/// The trigger's hook, in block mode, before `insn` at `pc` (index `idx`
/// of the pending block): a watched access stops the block before it for
/// `watched_step`. Returns whether it did. A stop address at `pc` comes
/// first (its own hook stops there), unless the run resumed from it.
pub(in crate::machine) fn before_in_block<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pc: u64,
    idx: Option<usize>,
    insn: Option<&Insn>,
) -> bool {
    let hart = uc.get_data_mut();
    // The first instruction of a run that resumed at a stop address runs
    // past it; elsewhere the stop address comes first.
    let resumed = hart.debug.watch.resume_at.take() == Some(pc);
    if hart.debug.watch.watches.is_empty() || (hart.run.stop_addrs.contains(&pc) && !resumed) {
        return false;
    }
    let Some(insn) = insn else { return false };
    if check(uc, pc, insn).is_none() {
        return false;
    }
    crate::machine::retire::finish(uc, idx.unwrap_or(0), Some(pc), false);
    let hart = uc.get_data_mut();
    hart.pending = None;
    hart.debug.watch.step_at = Some(pc);
    let _ = uc.emu_stop();
    true
}
