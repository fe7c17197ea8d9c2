//! Guests that would run forever without making progress: trap storms (the
//! same trap at the same pc, again and again, with nothing retired) and
//! jumps to themselves that no interrupt can end. Both end the run as a
//! guest fault at once, instead of at the instruction budget (or never).

use unicorn_engine::Unicorn;

use crate::isa::DecodedInsn;
use crate::isa::Op;
use crate::machine::hart::{Hart, Outcome};
use crate::machine::observe::Observer;
use crate::machine::traps::state::TRAP_LOOP_LIMIT;
use crate::trace::{Event, GuestFault};

/// Checks a delivery of `cause` at `epc` about to go to `handler` through
/// `tvec` ("mtvec"/"stvec"); `Some(fault)` when it is the storm's N-th.
pub(in crate::machine) fn check_trap_loop<O: Observer>(
    hart: &mut Hart<O>,
    cause: u64,
    epc: u64,
    handler: u64,
    tvec: &'static str,
) -> Option<GuestFault> {
    if !hart.run.account {
        // Raw runs (`bench`) count no instructions: progress is unknown.
        return None;
    }
    let retired = hart.executed.saturating_sub(hart.traps.trapped);
    let n = hart.traps.faults.note_trap(cause, epc, retired);
    (n >= TRAP_LOOP_LIMIT).then(|| GuestFault::TrapLoop {
        cause,
        pc: epc,
        place: hart.traps.faults.describe(epc),
        handler,
        tvec: tvec.into(),
        times: n,
    })
}

/// Whether `d`, taken to `next`, jumps to itself with nothing that could
/// change where it goes: `jal` and branches (their operands are not
/// written by the loop), and `jalr` unless it writes its own base.
fn jumps_to_itself(d: &DecodedInsn, next: u64) -> bool {
    if next != d.pc {
        return false;
    }
    match d.insn.map(|i| (i.op, i.rd, i.rs1)) {
        Some((Op::Jal, _, _)) | Some((Op::Branch(_), _, _)) => true,
        Some((Op::Jalr, rd, rs1)) => rd == 0 || rd != rs1,
        _ => false,
    }
}

/// After `last` retired with `next` as the following pc: a jump to itself
/// that no interrupt can end is a guest fault ("spins forever"), requested
/// as a stop so block mode and single-stepping end at the same instruction.
/// One that only the armed timer can end is skipped as `wfi` is: model
/// time moves to mtimecmp, charged as idle cycles, and the interrupt is
/// taken at the jump's next boundary (a user program spinning until the
/// tick, whose spin would otherwise cost millions of executions per tick).
/// Nothing the guest can see differs but the retired-instruction count:
/// the jump changes no register or memory, so executing it again and again
/// until the deadline leaves the hart as the skip does.
pub(in crate::machine) fn check_spin<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    last: &DecodedInsn,
    next: Option<u64>,
) {
    let Some(next) = next else { return };
    if !jumps_to_itself(last, next) {
        return;
    }
    if crate::machine::devices::pending::interrupt_possible(uc) {
        if let Some(deadline) = crate::machine::devices::pending::only_the_timer(uc) {
            crate::machine::devices::pending::idle_until(uc.get_data_mut(), last.pc, deadline);
        }
        return;
    }
    let hart = uc.get_data_mut();
    let f = GuestFault::Spin {
        pc: last.pc,
        place: hart.traps.faults.describe(last.pc),
    };
    request(hart, f);
}

/// Ends the run with `f` at the next boundary (block or step).
pub(in crate::machine) fn request<O: Observer>(hart: &mut Hart<O>, f: GuestFault) {
    hart.emit(Event::GuestFault {
        fault: Box::new(f.clone()),
    });
    hart.run.stop = Some(Outcome::Fault(f));
}
