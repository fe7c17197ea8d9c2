//! The hook on instructions trapscope runs or checks itself
//! (docs/decisions.md D4): CSR accesses it emulates, vector instructions, LR/SC and
//! AMOs, `wfi`, `sret` (TSR) and F/D instructions (NaN-boxing), with the
//! debug trigger and interrupt boundaries checked before each acts.

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::Op;
use crate::machine::debug::trigger;
use crate::machine::ext::fp;
use crate::machine::ext::fpflow;
use crate::machine::ext::lrsc;
use crate::machine::ext::vec;
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::retire::{fault, finish, pending_index};
use crate::machine::traps::cause;
use crate::machine::traps::csr::{self, CsrResult};
use crate::machine::traps::trap;

/// An instruction trapscope runs itself.
pub(in crate::machine) fn on_intercept<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    // A page hook calls here for every instruction on its page
    // (hookpages.rs): nothing to do where no intercept is.
    let (icpt, check) = {
        let hart = uc.get_data();
        let check = !hart.ext.fp_checks.is_empty() && hart.ext.fp_checks.contains(&pc);
        (hart.code.intercepts.contains_key(&pc), check)
    };
    if !icpt && !check {
        return;
    }
    // Whatever this instruction or a stop here reads is NaN-boxed.
    let idx = pending_index(uc.get_data(), pc);
    if let Some(i) = idx {
        fpflow::box_to(uc, i);
        if check && fpflow::stop_unboxed(uc, i, pc) {
            return;
        }
    }
    if !icpt {
        return;
    }
    if trigger::before(uc, pc) {
        return; // the debug trigger fired before it (trigger.rs)
    }
    // Another hook on this address ran first (intercept hooks are added as
    // their blocks are first decoded, so after the trigger's or a probe's)
    // and delivered a breakpoint: the pc has moved, nothing to run here.
    if uc.reg_read(R::PC).ok() != Some(pc) {
        return;
    }
    let Some(insn) = uc.get_data().code.intercepts.get(&pc).copied() else {
        return;
    };
    // A stop address here whose hook was added after this one (the block
    // ran before the stop was asked for): stop before the instruction
    // acts, as the stop hook would have (`on_stop_addr`), unless the run
    // starts here.
    {
        let hart = uc.get_data();
        if hart.run.stop_addrs.contains(&pc)
            && hart.run.skip_once != Some(pc)
            && hart.run.passed != Some(pc)
        {
            crate::machine::stops::on_stop_addr(uc, pc);
            return;
        }
    }
    // The timer's one-shot stop at this instruction: its hook was added
    // after this one, so take the interrupt here, before the instruction
    // acts, as a single step would (interrupt.rs).
    if uc.get_data().devices.irq_stop == Some(pc) {
        crate::machine::devices::interrupt::on_irq_stop(uc, pc);
        if uc.reg_read(R::PC).unwrap_or(pc) != pc {
            return;
        }
    }
    let idx = pending_index(uc.get_data(), pc);
    if matches!(insn.op, Op::Amo { .. }) && !lrsc::amo_traps(uc, &insn) {
        crate::machine::checkpoint::track::note_amo(uc, &insn);
        return; // runs natively
    }
    if matches!(insn.op, Op::Sret) && !csr::sret_traps(uc) {
        return; // runs natively
    }
    // fmin/fmax and NaN-boxing (fp.rs): most run natively.
    let fp = (insn.op == Op::Fp).then(|| fp::run(uc, &insn));
    if matches!(fp, Some(fp::FpResult::Native))
        || matches!(insn.op, Op::FpLoad { .. } | Op::FpStore { .. })
    {
        return; // hooked to box its input (fpflow.rs); it runs natively
    }
    if let Some(i) = idx {
        // Trapscope runs it, or it traps: nothing it does is left to box.
        fpflow::settled_at(uc, i);
    }
    if let Some(i) = idx {
        // Execution goes on normally into the intercepted instruction.
        finish(uc, i, Some(pc), true);
    }
    if crate::machine::devices::interrupt::before_intercept(uc, pc) {
        return;
    }
    if matches!(insn.op, Op::Wfi) {
        crate::machine::devices::wfi::wfi(uc, pc, &insn, idx);
        return;
    }
    if matches!(insn.op, Op::Lr { .. } | Op::Sc { .. } | Op::Amo { .. }) {
        crate::machine::traps::storm::note_emulated(uc.get_data_mut(), pc);
        let done = match insn.op {
            Op::Lr { .. } => lrsc::lr(uc, pc, &insn),
            Op::Sc { .. } => lrsc::sc(uc, pc, &insn),
            // The core traps AMOs: firmware emulates them (seed 004).
            _ => lrsc::Done::Trap(cause::CAUSE_ILLEGAL, u64::from(insn.raw)),
        };
        match done {
            lrsc::Done::Next => {
                finish(uc, idx.map_or(0, |i| i + 1), Some(pc + 4), false);
                let _ = uc.reg_write(R::PC, pc + 4);
            }
            lrsc::Done::Trap(cause, tval) => {
                finish(uc, idx.map_or(0, |i| i + 1), None, false);
                trap::raise(uc, cause, pc, tval);
            }
            lrsc::Done::Fault(f) => {
                finish(uc, idx.map_or(0, |i| i + 1), None, false);
                fault(uc, f);
            }
        }
        return;
    }
    if matches!(insn.op, Op::Sret) {
        // mstatus.TSR=1 in S-mode (priv spec §3.1.6.5).
        finish(uc, idx.map_or(0, |i| i + 1), None, false);
        trap::raise(uc, cause::CAUSE_ILLEGAL, pc, u64::from(insn.raw));
        return;
    }
    let vec = if let Some(r) = fp {
        // Already run above (fp.rs); only the outcome is left.
        Some(match r {
            fp::FpResult::Illegal => vec::VResult::Illegal,
            _ => vec::VResult::Done,
        })
    } else if matches!(insn.op, Op::Vector) {
        Some(vec::run_vector(uc, pc, &insn))
    } else if crate::machine::ext::vs::is_vector_csr(&insn) {
        Some(vec::run_vector_csr(uc, pc, &insn))
    } else {
        None
    };
    let result = match vec {
        Some(vec::VResult::Done) => CsrResult::Done,
        Some(vec::VResult::Illegal) => CsrResult::Illegal,
        Some(vec::VResult::Fault(f)) => {
            finish(uc, idx.map_or(0, |i| i + 1), None, false);
            fault(uc, f);
            return;
        }
        Some(vec::VResult::Trap(cause, tval)) => {
            finish(uc, idx.map_or(0, |i| i + 1), None, false);
            trap::raise(uc, cause, pc, tval);
            return;
        }
        None => csr::emulate(uc, pc, &insn),
    };
    match result {
        CsrResult::Done => {
            finish(uc, idx.map_or(0, |i| i + 1), Some(pc + 4), false);
            if crate::machine::devices::interrupt::after_intercept(uc, pc + 4) {
                return;
            }
            let _ = uc.reg_write(R::PC, pc + 4);
        }
        CsrResult::Illegal => {
            finish(uc, idx.map_or(0, |i| i + 1), None, false);
            trap::raise(uc, cause::CAUSE_ILLEGAL, pc, u64::from(insn.raw));
        }
    }
}
