//! The unicorn hooks: block entry (accounting, stops), exceptions (trap
//! delivery), intercepted instructions, run-until addresses, `tohost` and
//! memory faults.

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::Op;
use crate::isa::decode_range;
use crate::machine::code::block::Block;
use crate::machine::hart::{Hart, Outcome, Pending};
use crate::machine::observe::Observer;
use crate::machine::regs;
use crate::machine::retire::{fault, finish, on_tohost_value, pending_index};
use crate::machine::traps::cause;
use crate::machine::traps::trap;
use crate::trace::GuestFault;

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
        crate::machine::code::register::watch_code(uc, phys, phys + (end - addr));
        let saves = crate::machine::debug::frames::register(uc, &insns);
        let scan = crate::machine::ext::fpscan::scan(&insns);
        if crate::machine::code::register::register_block(uc, &insns, &scan.hooks, &scan.check_pcs)
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
    crate::machine::code::register::check_entry(uc, &block);
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
    if cause == cause::CAUSE_FETCH_ACCESS || cause == cause::CAUSE_FETCH_PAGE {
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
        cause::CAUSE_ECALL_U => trap::ecall_cause(regs::read_priv(uc)),
        // QEMU 5.0 reports a faulting AMO as a load; the spec's causes for
        // AMOs are the store/AMO ones (priv spec table 3.6).
        4 | 5 | 13 if is_amo => cause + 2,
        c => c,
    };
    if cause == cause::CAUSE_ILLEGAL
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
