//! Taking interrupts at exact instruction boundaries (docs/decisions.md D10).
//!
//! The boundaries where an interrupt can first become pending and enabled:
//! - the start of every block (after xRET, native CSR writes, traps: all end
//!   a translation block) and of every single step;
//! - right after an intercepted instruction (writes to mie/mip/sie/sip/
//!   mideleg/sstatus/mstatus, `wfi`) and right before one;
//! - inside a block, the instruction at which mtime reaches mtimecmp: before
//!   the block runs, the observer says what its instructions will cost, the
//!   first boundary at or past mtimecmp gets a one-shot stop, and the
//!   interrupt is taken there. Costs are integers, and the cost up to
//!   instruction i is the same whether the block runs whole or stepped, so
//!   both modes take it at the same instruction.
//!
//! A store to the CLINT or PLIC changes interrupt inputs in the middle of a
//! translated block, where the emulator cannot stop. Its effect is therefore
//! seen from the boundary after the next instruction that always ends a
//! block (a jump, branch, CSR access, xRET, `fence.i`, or a trap), in both
//! modes alike.

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::{Insn, Op};
use crate::machine::code::block::Block;
use crate::machine::devices::irq::{self};
use crate::machine::devices::pending::{due_now, enables};
use crate::machine::devices::state::IrqRequest;
use crate::machine::hart::{Hart, Outcome};
use crate::machine::observe::Observer;
use crate::machine::traps::trap;
use crate::trace::{GuestFault, Priv};

/// The most interrupt-stop hooks kept at once.
const MAX_IRQ_HOOKS: usize = 32;

/// Takes the interrupt due now, if any, with xepc = `epc` (the next
/// instruction, not executed). Returns whether it did.
pub(in crate::machine) fn take<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, epc: u64) -> bool {
    let Some((code, _)) = due_now(uc) else {
        return false;
    };
    uc.get_data_mut().pending = None;
    trap::deliver_interrupt(uc, code, epc);
    true
}

/// Whether an intercepted instruction stops a block for the timer scan (it
/// writes the pc, so the next instruction starts a new block). AMOs that run
/// natively do not, nor `sret` and F/D instructions, which usually run
/// natively too (TSR, NaN-boxing): the scan goes on through them, and a
/// stop placed on one is honoured by the intercept before it acts
/// (`hooks::on_intercept`).
fn splits(hart_amo_traps: bool, insn: &Insn) -> bool {
    match insn.op {
        Op::Amo { .. } => hart_amo_traps,
        Op::Sret | Op::Fp => false,
        _ => true,
    }
}

/// The block hook's check, before `block` runs (`true`: unicorn was stopped
/// and the run loop acts on `irq_request`).
pub(in crate::machine) fn plan<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    block: &Block<O::BlockData>,
) -> bool {
    let hart = uc.get_data_mut();
    hart.devices.irq_stop = None;
    if hart.devices.irq.mie == 0 || hart.devices.irq_defer {
        return false;
    }
    if due_now(uc).is_some() {
        return request(uc, IrqRequest::Deliver);
    }
    // The one input that changes by itself inside a block: MTIP, from time.
    let hart = uc.get_data();
    let cmp = hart.devices.platform.clint.mtimecmp;
    if hart.devices.irq.mie & irq::bit(irq::MTI) == 0 || cmp == u64::MAX || hart.time_value() >= cmp
    {
        return false;
    }
    // MTI is never delegated: it is taken below M, or in M with MIE.
    if hart.priv_ == Priv::M && !enables(uc).mie {
        return false;
    }
    let hart = uc.get_data();
    let limit = (1..block.insns.len())
        .find(|&k| {
            hart.code
                .intercepts
                .get(&block.insns[k].pc)
                .is_some_and(|i| splits(hart.ext.amo_traps, i))
        })
        .unwrap_or(block.insns.len());
    let Some(k) = first_reaching(hart, block, limit, cmp) else {
        return false;
    };
    let pc = block.insns[k].pc;
    if hart.devices.irq_hooks.contains_key(&pc) {
        uc.get_data_mut().devices.irq_stop = Some(pc);
        return false;
    }
    request(uc, IrqRequest::Install(pc))
}

/// The first boundary k in 1..limit of `block` (run from its start) where
/// mtime >= `cmp`.
fn first_reaching<O: Observer>(
    hart: &Hart<O>,
    block: &Block<O::BlockData>,
    limit: usize,
    cmp: u64,
) -> Option<usize> {
    let now = hart.time_value();
    if hart.obs.time_ahead(0).is_none() {
        let k = usize::try_from(cmp - now).ok()?;
        return (k < limit).then_some(k);
    }
    let mut v = Vec::with_capacity(limit);
    hart.obs
        .costs_ahead(&block.data, &block.insns[..limit], 0, &mut v);
    (1..limit).find(|&k| {
        hart.obs
            .time_ahead(v[k])
            .is_some_and(|t| hart.clock.time_base.wrapping_add(t) >= cmp)
    })
}

fn request<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, r: IrqRequest) -> bool {
    uc.get_data_mut().devices.irq_request = Some(r);
    let _ = uc.emu_stop(); // before the block runs
    true
}

/// The one-shot stop placed by `plan`: the timer interrupt is due here.
pub(in crate::machine) fn on_irq_stop<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64) {
    let hart = uc.get_data_mut();
    if hart.devices.irq_stop != Some(pc) {
        return;
    }
    hart.devices.irq_stop = None;
    let Some(i) = hart.pending.as_ref().and_then(|p| p.block.index_of(pc)) else {
        return;
    };
    crate::machine::retire::finish(uc, i, Some(pc), true);
    take(uc, pc);
}

/// Before an intercepted instruction at `pc` runs (the instructions before
/// it accounted): an interrupt due here is taken instead.
pub(in crate::machine) fn before_intercept<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pc: u64,
) -> bool {
    take(uc, pc)
}

/// After an intercepted instruction completed (`next` = pc + 4): a write to
/// an interrupt CSR or to mstatus/sstatus may have enabled one. Returns
/// whether it was taken (the pc is then the handler's).
pub(in crate::machine) fn after_intercept<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    next: u64,
) -> bool {
    uc.get_data_mut().devices.irq_defer = false;
    take(uc, next)
}

/// The run loop's part after the block hook stopped unicorn for an
/// interrupt (`IrqRequest`). Returns a stop to honour, if any.
pub(in crate::machine) fn resume<O: Observer + 'static>(
    uc: &mut Unicorn<'static, Hart<O>>,
) -> Option<Outcome> {
    match uc.get_data_mut().devices.irq_request.take()? {
        IrqRequest::Deliver => {
            let pc = uc.reg_read(R::PC).unwrap_or(0);
            take(uc, pc);
            uc.get_data_mut().run.stop.take()
        }
        IrqRequest::Install(pc) => {
            // unicorn checks every code hook's range at each hooked
            // instruction, so stops for many different addresses (a
            // periodic tick) are dropped and made again past a bound.
            if uc.get_data().devices.irq_hooks.len() >= MAX_IRQ_HOOKS {
                let old: Vec<_> = uc
                    .get_data_mut()
                    .devices
                    .irq_hooks
                    .drain()
                    .map(|(_, id)| id)
                    .collect();
                for id in old {
                    let _ = uc.remove_hook(id);
                }
                let _ = uc.ctl_flush_tb();
            }
            match uc.add_code_hook(pc, pc, |uc, addr, _| {
                crate::machine::guard::shield(uc, (), |uc| on_irq_stop(uc, addr))
            }) {
                Ok(id) => {
                    uc.get_data_mut().devices.irq_hooks.insert(pc, id);
                    // Code translated before the hook existed does not call it.
                    crate::machine::code::smc::drop_translations(uc, pc, pc + 4);
                    None
                }
                Err(e) => {
                    let f = GuestFault::Emulator {
                        pc,
                        error: format!("cannot stop for an interrupt at {pc:#x}: {e:?}"),
                    };
                    crate::machine::retire::fault(uc, f.clone());
                    uc.get_data_mut().run.outcome = None;
                    Some(Outcome::Fault(f))
                }
            }
        }
    }
}

/// Single-step: an interrupt due before the instruction at the pc is taken
/// as a step of its own. Returns the step's outcome if one was taken.
pub(in crate::machine) fn before_step<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
) -> Option<Outcome> {
    let pc = uc.reg_read(R::PC).unwrap_or(0);
    if !take(uc, pc) {
        return None;
    }
    Some(
        uc.get_data_mut()
            .run
            .stop
            .take()
            .unwrap_or(Outcome::Stepped),
    )
}
