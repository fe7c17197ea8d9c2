//! What retired, reported: the primitive every hook and feature calls when
//! the instructions of the pending block up to a point have run (`finish`),
//! with the events that follow from them (native CSR writes, xRET), and
//! the two ways a run ends from inside a hook (a guest fault, `tohost`).
//! Below every handler that calls it; it calls only the per-instruction
//! checks that retirement owes (FS changes, NaN-boxing, deferred
//! interrupts, spins).

use unicorn_engine::Unicorn;

use crate::isa::Op;
use crate::machine::hart::{Hart, Outcome, Pending};
use crate::machine::observe::{Observer, Retire};
use crate::machine::regs;
use crate::trace::{Event, GuestFault, XRet};

/// Reports `pending.block.insns[from..to]` as retired; keeps the pending block
/// (for a later part) when `keep`.
pub(in crate::machine) fn finish<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    to: usize,
    next: Option<u64>,
    keep: bool,
) {
    // An instruction in the range changed sstatus.FS: report up to it, the
    // change, then the rest (fstate.rs), as single steps would.
    if let Some(s) = crate::machine::ext::fstate::split(uc, to) {
        let (at, after) = (s.at, s.after);
        finish(uc, at + 1, Some(after), true);
        crate::machine::ext::fstate::emit_split(uc.get_data_mut(), s);
        finish(uc, to, next, keep);
        return;
    }
    // What ran is boxed before anything reads it (fpflow.rs).
    crate::machine::ext::fpflow::box_to(uc, to);
    let hart = uc.get_data_mut();
    let Some(mut p) = hart.pending.take() else {
        return;
    };
    let mut to = to.min(p.block.insns.len());
    // Nothing after the store to `tohost` counts: the run ended there.
    if let Some((_, xpc)) = hart.run.exit
        && let Some(i) = p.block.index_of(xpc)
        && i >= p.from
    {
        to = to.min(i + 1);
    }
    if to > p.from {
        let at = hart.executed;
        let produced = hart.obs.retired(&Retire {
            insns: &p.block.insns,
            data: &p.block.data,
            from: p.from,
            to,
            next,
            priv_: p.priv_,
            at,
        });
        if hart.run.stop.is_none()
            && let Some(k) = hart
                .run
                .until_kinds
                .iter()
                .find(|k| produced & (1 << **k as u32) != 0)
        {
            hart.run.stop = Some(Outcome::ReachedEvent(*k));
        }
        hart.executed += (to - p.from) as u64;
        let first = p.block.insns[p.from].pc;
        hart.emit(Event::Retired {
            pc: first,
            count: (to - p.from) as u32,
            priv_: p.priv_,
        });
        post_retire(uc, &p, to, next);
        let hart = uc.get_data_mut();
        if hart.devices.irq_defer {
            crate::machine::devices::pending::end_defer(hart, &p.block.insns[to - 1], next);
        }
        if let Some((code, xpc)) = hart.run.exit
            && p.block.index_of(xpc).is_some_and(|i| i + 1 == to)
        {
            hart.emit(Event::Exit { code, pc: xpc });
        } else if to == p.block.insns.len() {
            crate::machine::traps::fault::check_spin(uc, &p.block.insns[to - 1], next);
        }
    }
    if keep {
        p.from = to;
        uc.get_data_mut().pending = Some(p);
    }
}

/// Events that follow from what retired: native CSR writes and xRET.
fn post_retire<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    p: &Pending<O::BlockData>,
    to: usize,
    next: Option<u64>,
) {
    // New page tables: a virtual address may now hold other code, so the
    // decoded blocks go, and intercepts are checked again as blocks are
    // decoded anew (register::register_block).
    if !p.block.system {
        return post_xret(uc, p, to, next);
    }
    if p.block.insns[p.from..to].iter().any(|d| {
        d.insn.is_some_and(|i| {
            i.op == Op::SfenceVma
                || (matches!(i.op, Op::Csr(_))
                    && i.csr == 0x180
                    && crate::machine::traps::csr_rules::writes(&i))
        })
    }) {
        uc.get_data_mut().code.blocks.clear();
        // The new root's tables get A/D bits no hook sees (dirty.rs).
        let satp = regs::read_csr(uc, 0x180).unwrap_or(0);
        if let Some(d) = uc.get_data_mut().dirty.as_mut() {
            d.note_root(satp);
        }
    }
    for d in &p.block.insns[p.from..to] {
        let Some(insn) = d.insn else { continue };
        if !matches!(insn.op, Op::Csr(_))
            || !crate::machine::traps::csr_rules::writes(&insn)
            || crate::machine::traps::csr_rules::must_intercept(&insn)
        {
            continue;
        }
        // QEMU ends a translation block after every CSR instruction, so the
        // value read here is the one the instruction wrote.
        if let Some(new) = regs::read_csr(uc, insn.csr) {
            let hart = uc.get_data_mut();
            let old = hart.traps.csr_shadow.insert(insn.csr, new);
            hart.emit(Event::CsrWrite {
                pc: d.pc,
                csr: insn.csr,
                old,
                new,
            });
        }
    }
    post_xret(uc, p, to, next);
}

/// An `sret`/`mret` at the end of what retired: the return and the new
/// privilege.
fn post_xret<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    p: &Pending<O::BlockData>,
    to: usize,
    next: Option<u64>,
) {
    let last = &p.block.insns[to - 1];
    let via = match last.insn.map(|i| i.op) {
        Some(Op::Sret) => XRet::Sret,
        Some(Op::Mret) => XRet::Mret,
        _ => return,
    };
    let Some(target) = next else { return };
    let to_priv = regs::read_priv(uc);
    let hart = uc.get_data_mut();
    let from = p.priv_;
    hart.priv_ = to_priv;
    if hart.ext.xret_clears {
        hart.ext.lrsc.clear(last.pc);
    }
    hart.emit(Event::TrapReturn {
        via,
        from,
        to: to_priv,
        pc: last.pc,
        target,
    });
    if from != to_priv {
        hart.emit(Event::PrivChange {
            from,
            to: to_priv,
            pc: last.pc,
        });
    }
}

/// Index of `pc` in the pending block, if it is there.
pub(in crate::machine) fn pending_index<O: Observer>(hart: &Hart<O>, pc: u64) -> Option<usize> {
    hart.pending.as_ref().and_then(|p| p.block.index_of(pc))
}

/// Stops the run with a guest fault.
pub(in crate::machine) fn fault<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, f: GuestFault) {
    let hart = uc.get_data_mut();
    hart.pending = None;
    hart.emit(Event::GuestFault {
        fault: Box::new(f.clone()),
    });
    hart.run.outcome = Some(Outcome::Fault(f));
    let _ = uc.emu_stop();
}

/// `tohost` now holds `v`, written by the instruction at `pc`.
pub(in crate::machine) fn on_tohost_value<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    v: u64,
    pc: u64,
) {
    if v & 1 == 0 {
        return;
    }
    let hart = uc.get_data_mut();
    hart.run.exit = Some((v >> 1, pc));
    if hart.run.account {
        hart.run.stop = Some(Outcome::Exited(v >> 1));
    } else {
        // No block hook will see a stop request: stop now.
        hart.run.outcome = Some(Outcome::Exited(v >> 1));
        let _ = uc.emu_stop();
    }
}
