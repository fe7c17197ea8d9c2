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
use crate::machine::Machine;
use crate::machine::Until;
use crate::machine::hart::{Hart, Outcome};
use crate::machine::memory::mmu;
use crate::machine::observe::Observer;
use crate::trace::Priv;

/// A watched range of physical memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub phys: u64,
    pub len: u64,
}

/// What a watched access did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchAccess {
    Load,
    Store,
    /// An AMO: a load and a store.
    Amo,
}

impl WatchAccess {
    pub fn name(self) -> &'static str {
        match self {
            WatchAccess::Load => "load",
            WatchAccess::Store => "store",
            WatchAccess::Amo => "amo (load and store)",
        }
    }
}

/// A watch hit: the instruction at `pc` accessed `size` bytes at `vaddr`
/// (`paddr` in physical memory), which overlap watch number `watch`;
/// `value` is what those bytes hold after the access (little-endian): the
/// value stored, or loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchHit {
    pub pc: u64,
    pub access: WatchAccess,
    pub vaddr: u64,
    pub paddr: u64,
    pub size: u64,
    pub value: u64,
    pub watch: usize,
}

impl WatchHit {
    /// One line for the status bar and reports: which watch, the pc that
    /// made the access, the access, its address and the value.
    pub fn describe(&self, p: &crate::machine::Program) -> String {
        let (what, verb, prep) = match self.access {
            WatchAccess::Load => ("load", "read", "from"),
            WatchAccess::Store => ("store", "wrote", "to"),
            WatchAccess::Amo => ("AMO", "left", "at"),
        };
        // Data by symbol only inside one (or just past an unsized label):
        // the nearest symbol below a heap or stack address names nothing.
        let named = p
            .symbol_at(self.vaddr)
            .is_some_and(|(s, off)| off < s.size || (s.size == 0 && off < 0x1000));
        let mut notes = Vec::new();
        let place = if named {
            notes.push(format!("{:#x}", self.vaddr));
            p.describe(self.vaddr)
        } else {
            format!("{:#x}", self.vaddr)
        };
        if self.paddr != self.vaddr {
            notes.push(format!("physical {:#x}", self.paddr));
        }
        notes.push(format!(
            "{} byte{}",
            self.size,
            if self.size == 1 { "" } else { "s" }
        ));
        format!(
            "watch {}: the {what} at {} {verb} {:#x} {prep} {place} ({})",
            self.watch + 1,
            p.describe(self.pc),
            self.value,
            notes.join(", ")
        )
    }
}

/// The machine's watch state.
#[derive(Clone, Debug, Default)]
pub(in crate::machine) struct WatchState {
    pub watches: Vec<Watch>,
    /// Block mode stopped before the watched access at this pc, for the run
    /// loop to single-step it.
    pub step_at: Option<u64>,
    /// The access the current single step makes, checked after it.
    pub armed: Option<Armed>,
    /// The run resumed at a stop address here, which its first execution
    /// passes (`Hart::skip_once`, which the stop hook may clear before or
    /// after the watch's hook runs).
    pub resume_at: Option<u64>,
}

/// An access found before its instruction ran, with what tells afterwards
/// whether it happened.
#[derive(Clone, Copy, Debug)]
pub(in crate::machine) struct Armed {
    hit: WatchHit,
    executed: u64,
    trapped: u64,
    sc_successes: Option<u64>,
}

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
    crate::machine::hooks::finish(uc, idx.unwrap_or(0), Some(pc), false);
    let hart = uc.get_data_mut();
    hart.pending = None;
    hart.debug.watch.step_at = Some(pc);
    let _ = uc.emu_stop();
    true
}
