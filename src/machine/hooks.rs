//! The unicorn hooks: block entry (accounting, stops), exceptions (trap
//! delivery), intercepted instructions, run-until addresses, `tohost` and
//! memory faults.

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::Op;
use crate::isa::decode_range;
use crate::machine::code::block::Block;
use crate::machine::hart::{Hart, Outcome, Pending};
use crate::machine::observe::{Observer, Retire};
use crate::machine::regs;
use crate::machine::traps::trap;
use crate::trace::{Event, GuestFault, XRet};

/// Reports `pending.block.insns[from..to]` as retired; keeps the pending block
/// (for a later part) when `keep`.
pub(super) fn finish<O: Observer>(
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
            crate::machine::devices::interrupt::end_defer(hart, &p.block.insns[to - 1], next);
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
    // decoded anew (smc::register_block).
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

/// Looks up or decodes the block unicorn is about to run.
pub(super) fn block_at<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    addr: u64,
    size: u32,
) -> std::rc::Rc<Block<O::BlockData>> {
    if let Some(b) = uc.get_data().code.blocks.get(addr, size) {
        return b;
    }
    // unicorn's memory API is physical: read the code where paging puts it.
    let phys = crate::machine::code::smc::physical_pc(uc, addr);
    let bytes = uc.mem_read_as_vec(phys, size as usize).unwrap_or_default();
    let insns = decode_range(addr, &bytes);
    let end = insns.last().map_or(addr, |i| i.pc + u64::from(i.len));
    let mut fp = None;
    if uc.get_data().run.account {
        crate::machine::code::smc::watch_code(uc, phys, phys + (end - addr));
        let saves = crate::machine::debug::frames::register(uc, &insns);
        let scan = crate::machine::ext::fpscan::scan(&insns);
        if crate::machine::code::smc::register_block(uc, &insns, &scan.hooks, &scan.check_pcs)
            | saves
        {
            uc.get_data_mut().code.smc.fresh = Some((addr, end.max(addr + 1)));
        }
        fp = scan.flow;
    }
    let hart = uc.get_data_mut();
    let data = hart.obs.build(&insns);
    hart.code
        .blocks
        .insert(size, Block::new(addr, end, phys, insns, data, fp))
}

pub(super) fn on_block<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, addr: u64, size: u32) {
    uc.get_data_mut().run.passed = None;
    if uc.get_data().run.stepping {
        return;
    }
    finish(uc, usize::MAX, Some(addr), false);
    let hart = uc.get_data_mut();
    if let Some(stop) = hart.run.stop.take() {
        hart.run.outcome = Some(stop);
        let _ = uc.emu_stop(); // before the block runs
        return;
    }
    if crate::machine::sigint::requested() {
        hart.run.outcome = Some(Outcome::Interrupted);
        let _ = uc.emu_stop(); // before the block runs
        return;
    }
    let block = block_at(uc, addr, size);
    crate::machine::ext::fpflow::check_entry(uc, &block);
    if let Some((s, e)) = uc.get_data_mut().code.smc.fresh.take() {
        // Its translation lacks the hooks of intercepts just found: drop it
        // and stop before it runs; the run loop starts here again.
        crate::machine::code::smc::drop_translations(uc, s, e);
        let _ = uc.emu_stop();
        return;
    }
    let hart = uc.get_data_mut();
    if hart.executed + block.insns.len() as u64 > hart.run.limit {
        hart.run.outcome = Some(Outcome::Budget);
        let _ = uc.emu_stop(); // before the block runs
        return;
    }
    if crate::machine::devices::interrupt::plan(uc, &block) {
        return;
    }
    let hart = uc.get_data_mut();
    let priv_ = hart.priv_;
    hart.pending = Some(Pending {
        block,
        from: 0,
        boxed: 0,
        priv_,
    });
}

/// Index of `pc` in the pending block, if it is there.
pub(super) fn pending_index<O: Observer>(hart: &Hart<O>, pc: u64) -> Option<usize> {
    hart.pending.as_ref().and_then(|p| p.block.index_of(pc))
}

/// An exception unicorn raised: unicorn has already advanced the pc by 4.
pub(super) fn on_exception<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, intno: u32) {
    let epc = uc.reg_read(R::PC).unwrap_or(0).wrapping_sub(4);
    let cause = u64::from(intno);
    if cause > 15 {
        fault(
            uc,
            GuestFault::Emulator {
                pc: epc,
                error: format!("unexpected exception number {intno}"),
            },
        );
        return;
    }
    if cause == trap::CAUSE_FETCH_ACCESS || cause == trap::CAUSE_FETCH_PAGE {
        // Nothing at epc executed; what came before it in the pending block
        // did. The delivery still counts against the budget (as executed and
        // trapped, so instret does not move).
        let idx = pending_index(uc.get_data(), epc);
        finish(uc, idx.unwrap_or(usize::MAX), Some(epc), false);
        uc.get_data_mut().executed += 1;
        trap::raise(uc, cause, epc, epc);
        return;
    }
    let idx = match pending_index(uc.get_data(), epc) {
        Some(i) => i,
        None => {
            // unicorn's block hook did not cover the trapping instruction
            // (a block that starts with it has size 0): what was pending ran
            // whole, and the instruction becomes a block of its own, as when
            // single-stepping.
            finish(uc, usize::MAX, Some(epc), false);
            crate::machine::traps::access::own_block(uc, epc);
            0
        }
    };
    let d = uc
        .get_data()
        .pending
        .as_ref()
        .and_then(|p| p.block.insns.get(idx).copied());
    let (raw, insn) = d.map_or((0, None), |d| (d.raw, d.insn));
    let is_amo = matches!(insn.map(|i| i.op), Some(Op::Amo { .. }));
    let cause = match cause {
        trap::CAUSE_ECALL_U => trap::ecall_cause(regs::read_priv(uc)),
        // QEMU 5.0 reports a faulting AMO as a load; the spec's causes for
        // AMOs are the store/AMO ones (priv spec table 3.6).
        4 | 5 | 13 if is_amo => cause + 2,
        c => c,
    };
    if cause == trap::CAUSE_ILLEGAL
        && let Some(why) = unsupported_reason(insn.as_ref())
    {
        fault(
            uc,
            GuestFault::Unsupported {
                pc: epc,
                encoding: raw,
                why: why.into(),
                place: uc.get_data().traps.faults.describe(epc),
            },
        );
        return;
    }
    let tval = trap::tval_for(uc, cause, epc, raw, insn.as_ref());
    crate::machine::ext::fpflow::settled_at(uc, idx); // it wrote nothing
    finish(uc, idx + 1, None, false);
    trap::raise(uc, cause, epc, tval);
}

/// Instructions that are valid RISC-V but that this machine does not run yet:
/// they are reported as unsupported rather than delivered as illegal.
fn unsupported_reason(insn: Option<&crate::isa::Insn>) -> Option<&'static str> {
    match insn?.op {
        // Reached only if the instruction escaped interception (e.g. code
        // the scan did not see): say so rather than trap the guest.
        Op::Vector => Some("a vector instruction outside the scanned text"),
        _ => None,
    }
}

/// Stops the run with a guest fault.
pub(super) fn fault<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, f: GuestFault) {
    let hart = uc.get_data_mut();
    hart.pending = None;
    hart.emit(Event::GuestFault {
        fault: Box::new(f.clone()),
    });
    hart.run.outcome = Some(Outcome::Fault(f));
    let _ = uc.emu_stop();
}

pub(super) use crate::machine::code::intercept::on_intercept;

/// A run-until address or breakpoint: stop before executing it.
pub(super) fn on_stop_addr<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
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
pub(super) fn on_probe<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
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
    trap::deliver(uc, trap::CAUSE_BREAKPOINT, pc, pc);
}

/// A write to `tohost` (HTIF): `(code << 1) | 1` ends the run.
pub(super) fn on_tohost<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, addr: u64, value: i64) {
    let v = value as u64;
    if v & 1 == 0 {
        return;
    }
    // unicorn's pc in a memory hook is the block's, not the store's: find the
    // store in the pending block whose address (registers are live) is `addr`.
    let hart = uc.get_data();
    let store = hart.pending.as_ref().and_then(|p| {
        p.block.insns[p.from..].iter().find(|d| {
            d.insn.is_some_and(|i| {
                matches!(i.op, Op::Store { .. } | Op::FpStore { .. })
                    && regs::read_gpr(uc, i.rs1).wrapping_add(i.imm as u64) == addr
            })
        })
    });
    let pc = store.map_or_else(|| uc.reg_read(R::PC).unwrap_or(0), |d| d.pc);
    on_tohost_value(uc, v, pc);
}

/// `tohost` now holds `v`, written by the instruction at `pc`.
pub(super) fn on_tohost_value<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, v: u64, pc: u64) {
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
