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

use crate::isa::DecodedInsn;
use crate::isa::{Insn, Op};
use crate::machine::code::block::Block;
use crate::machine::devices::irq::{self, Enables};
use crate::machine::devices::state::IrqRequest;
use crate::machine::hart::{Hart, Outcome};
use crate::machine::hooks;
use crate::machine::observe::Observer;
use crate::machine::regs::{self, status};
use crate::machine::traps::trap;
use crate::trace::{GuestFault, Priv};

/// The most interrupt-stop hooks kept at once.
const MAX_IRQ_HOOKS: usize = 32;

/// mtime at instruction `k` of the pending block (all before it accounted),
/// or now when nothing is pending.
pub(in crate::machine) fn time_at<O: Observer>(hart: &Hart<O>, k: usize) -> u64 {
    let Some(p) = hart.pending.as_ref() else {
        return hart.time_value();
    };
    let n = k.saturating_sub(p.from);
    if n == 0 {
        return hart.time_value();
    }
    if hart.obs.time_ahead(0).is_some() {
        let mut v = Vec::new();
        hart.obs.costs_ahead(
            &p.block.data,
            &p.block.insns[..k.min(p.block.insns.len())],
            p.from,
            &mut v,
        );
        let milli = v.last().copied().unwrap_or(0);
        return hart
            .clock
            .time_base
            .wrapping_add(hart.obs.time_ahead(milli).unwrap_or(0));
    }
    // No core model: time counts instructions, like `cycle`.
    hart.time_value() + n as u64
}

/// The index in the pending block of the memory access to `addr` (the
/// registers are live while unicorn runs it), else the first unreported one.
pub(in crate::machine) fn access_index<O: Observer>(
    uc: &Unicorn<'_, Hart<O>>,
    addr: u64,
) -> Option<usize> {
    let p = uc.get_data().pending.as_ref()?;
    let hit = (p.from..p.block.insns.len()).find(|&i| {
        p.block.insns[i].insn.is_some_and(|x| {
            let base = regs::read_gpr(uc, x.rs1);
            match x.op {
                Op::Load { .. } | Op::Store { .. } | Op::FpLoad { .. } | Op::FpStore { .. } => {
                    base.wrapping_add(x.imm as u64) == addr
                }
                Op::Lr { .. } | Op::Sc { .. } | Op::Amo { .. } => base == addr,
                _ => false,
            }
        })
    });
    Some(hit.unwrap_or(p.from))
}

/// The global enables now.
fn enables<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) -> Enables {
    let ms = regs::read_csr(uc, crate::machine::traps::csr_rules::MSTATUS).unwrap_or(0);
    Enables {
        priv_: uc.get_data().priv_,
        mie: ms & status::MIE != 0,
        sie: ms & status::SIE != 0,
    }
}

/// mip as the guest reads it now.
pub(in crate::machine) fn mip_now<O: Observer>(hart: &Hart<O>) -> u64 {
    let lines = hart.devices.platform.lines(hart.time_value());
    hart.devices.irq.mip(lines)
}

/// The interrupt to take at this boundary (everything before it accounted).
fn due_now<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) -> Option<(u64, Priv)> {
    let hart = uc.get_data();
    if hart.devices.irq.mie == 0 || hart.devices.irq_defer {
        return None;
    }
    let pending = mip_now(hart);
    if pending & hart.devices.irq.mie == 0 {
        return None;
    }
    let st = hart.devices.irq;
    let en = enables(uc);
    irq::select(&st, pending, en)
}

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
    hooks::finish(uc, i, Some(pc), true);
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

/// A device write deferred interrupt checks; they resume after an
/// instruction that always ends a translated block, or a trap.
pub(in crate::machine) fn end_defer<O: Observer>(
    hart: &mut Hart<O>,
    last: &DecodedInsn,
    next: Option<u64>,
) {
    let ends = next.is_none()
        || last
            .insn
            .is_some_and(|i| i.is_control() || matches!(i.op, Op::Csr(_) | Op::FenceI | Op::Wfi));
    if ends {
        hart.devices.irq_defer = false;
    }
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
                    hooks::fault(uc, f.clone());
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

/// Whether an interrupt could ever be taken here without the guest doing
/// anything more (for "spins forever": a loop that writes no CSR and no
/// device): one is pending and takeable now, or the timer is armed and MTI
/// takeable (§3.1.6.1 enables at the current privilege).
pub(in crate::machine) fn interrupt_possible<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>) -> bool {
    let hart = uc.get_data();
    if hart.devices.irq.mie == 0 {
        return false;
    }
    let mut could = mip_now(hart);
    if hart.devices.platform.clint.mtimecmp != u64::MAX {
        could |= irq::bit(irq::MTI);
    }
    let st = hart.devices.irq;
    let (m, s) = irq::takeable(&st, enables(uc));
    (m | s) & could != 0
}

/// When a guest can only wait for the timer (nothing pending and enabled
/// now, MTI takeable at the current privilege, mtimecmp armed within
/// `wfi`'s limit and ahead): mtimecmp, the time the wait ends.
pub(in crate::machine) fn only_the_timer<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
) -> Option<u64> {
    let hart = uc.get_data();
    let cmp = hart.devices.platform.clint.mtimecmp;
    let now = hart.time_value();
    if hart.devices.irq.mie & irq::bit(irq::MTI) == 0 || cmp == u64::MAX || cmp <= now {
        return None;
    }
    if cmp - now > crate::machine::devices::wfi::WAIT_LIMIT {
        return None;
    }
    if mip_now(hart) & hart.devices.irq.mie != 0 {
        return None;
    }
    let st = hart.devices.irq;
    let (m, s) = irq::takeable(&st, enables(uc));
    ((m | s) & irq::bit(irq::MTI) != 0).then_some(cmp)
}
