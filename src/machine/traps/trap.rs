//! Trap delivery in software, because unicorn reports exceptions but does not
//! vector them (docs/decisions.md D2). Follows the privileged spec:
//! §3.1.8 (medeleg: a trap is delegated to S only if it comes from S or U and
//! its bit is set; traps never go to a lower privilege), §3.1.6.1 / §4.1.1
//! (xPP, xPIE, xIE on trap entry), §3.1.7 / §4.1.2 (xtvec: synchronous
//! exceptions go to BASE in both direct and vectored mode), §3.1.15-16 / §4.1.7-9
//! (xepc, xcause, xtval).

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::{Insn, Op};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::regs::{self, status};
use crate::machine::traps::cause::{
    CAUSE_BREAKPOINT, CAUSE_ECALL_U, CAUSE_ILLEGAL, CAUSE_LOAD_MISALIGNED, CAUSE_STORE_MISALIGNED,
    INTERRUPT,
};
use crate::trace::{Event, Priv};

/// The cause for an `ecall` from `p` (priv spec table 3.6).
pub fn ecall_cause(p: Priv) -> u64 {
    CAUSE_ECALL_U + p.bits()
}

/// xtval for a trap raised by `insn` (priv spec §3.1.16): the faulting address
/// for misaligned accesses, access faults and load/store page faults (QEMU
/// 5.0 in unicorn leaves it 0), the encoding for illegal instructions, the
/// pc for breakpoints, zero otherwise.
pub fn tval_for<D>(
    uc: &Unicorn<'_, D>,
    cause: u64,
    epc: u64,
    raw: u32,
    insn: Option<&Insn>,
) -> u64 {
    match cause {
        CAUSE_ILLEGAL => u64::from(raw),
        CAUSE_BREAKPOINT => epc,
        CAUSE_LOAD_MISALIGNED | CAUSE_STORE_MISALIGNED | 5 | 7 | 13 | 15 => match insn {
            Some(i) => {
                let base = regs::read_gpr(uc, i.rs1);
                match i.op {
                    Op::Lr { .. } | Op::Sc { .. } | Op::Amo { .. } => base,
                    _ => base.wrapping_add(i.imm as u64),
                }
            }
            None => 0,
        },
        _ => 0,
    }
}

/// An exception raised by the instruction at `epc`, which therefore did not
/// retire (it was accounted as executed).
/// Every delivery counts against the run's budget: a storm of traps that
/// retire nothing still ends at it (or earlier, as a trap loop).
pub fn raise<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, cause: u64, epc: u64, tval: u64) -> u64 {
    uc.get_data_mut().traps.trapped += 1;
    let handler = deliver(uc, cause, epc, tval);
    let hart = uc.get_data_mut();
    if !hart.run.stepping && hart.run.outcome.is_none() && hart.executed >= hart.run.limit {
        hart.run.outcome = Some(crate::machine::hart::Outcome::Budget);
        let _ = uc.emu_stop();
    }
    handler
}

/// Where a trap of `cause` from the current privilege goes (priv spec
/// §3.1.8): the mode, the handler (xtvec.BASE) and the CSR's name.
pub fn target<D>(uc: &mut Unicorn<'_, D>, cause: u64) -> (Priv, u64, &'static str) {
    let from = regs::read_priv(uc);
    let medeleg = regs::read_csr(uc, 0x302).unwrap_or(0);
    if from != Priv::M && cause < 64 && (medeleg >> cause) & 1 == 1 {
        let tvec = regs::read_csr(uc, 0x105).unwrap_or(0);
        (Priv::S, tvec & !3, "stvec")
    } else {
        let tvec = regs::read_csr(uc, 0x305).unwrap_or(0);
        (Priv::M, tvec & !3, "mtvec")
    }
}

/// Delivers a synchronous exception: updates the CSRs of the mode that takes
/// it, switches privilege and jumps to its handler. Returns the handler pc.
pub fn deliver<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, cause: u64, epc: u64, tval: u64) -> u64 {
    let from = regs::read_priv(uc);
    // Privilege first, then CSRs (docs/decisions.md D3).
    regs::set_priv(uc, Priv::M);
    let medeleg = uc.reg_read(R::MEDELEG).unwrap_or(0);
    let irq = cause & INTERRUPT != 0;
    let code = cause & !INTERRUPT;
    let delegated = if irq {
        // mideleg, from trapscope's shadow (§3.1.8).
        from != Priv::M && code < 64 && (uc.get_data().devices.irq.mideleg >> code) & 1 == 1
    } else {
        from != Priv::M && cause < 64 && (medeleg >> cause) & 1 == 1
    };
    let to = if delegated { Priv::S } else { Priv::M };
    let (tvec_reg, tvec_name) = if delegated {
        (R::STVEC, "stvec")
    } else {
        (R::MTVEC, "mtvec")
    };
    let target = uc.reg_read(tvec_reg).unwrap_or(0) & !3;
    if let Some(f) = crate::machine::traps::fault::check_trap_loop(
        uc.get_data_mut(),
        cause,
        epc,
        target,
        tvec_name,
    ) {
        regs::set_priv(uc, from);
        crate::machine::retire::fault(uc, f);
        return target;
    }
    crate::machine::traps::storm::note_trap(uc.get_data_mut(), cause, epc);
    let mut ms = uc.reg_read(R::MSTATUS).unwrap_or(0);
    let tvec = if to == Priv::S {
        let _ = uc.reg_write(R::SEPC, epc);
        let _ = uc.reg_write(R::SCAUSE, cause);
        let _ = uc.reg_write(R::STVAL, tval);
        let sie = ms & status::SIE != 0;
        ms &= !(status::SPP | status::SPIE | status::SIE);
        if from == Priv::S {
            ms |= status::SPP;
        }
        if sie {
            ms |= status::SPIE;
        }
        uc.reg_read(R::STVEC).unwrap_or(0)
    } else {
        let _ = uc.reg_write(R::MEPC, epc);
        let _ = uc.reg_write(R::MCAUSE, cause);
        let _ = uc.reg_write(R::MTVAL, tval);
        let mie = ms & status::MIE != 0;
        ms &= !(status::MPP | status::MPIE | status::MIE);
        ms |= from.bits() << status::MPP_SHIFT;
        if mie {
            ms |= status::MPIE;
        }
        uc.reg_read(R::MTVEC).unwrap_or(0)
    };
    let _ = uc.reg_write(R::MSTATUS, ms);
    // Vectored mode sends interrupts to BASE + 4 x cause (§3.1.7).
    let handler = if irq && tvec & 3 == 1 && code < 64 {
        (tvec & !3).wrapping_add(4 * code)
    } else {
        tvec & !3
    };
    regs::set_priv(uc, to);
    let _ = uc.reg_write(R::PC, handler);

    let hart = uc.get_data_mut();
    hart.priv_ = to;
    hart.traps.last_trap = Some((cause, epc));
    let (e, c, t) = if to == Priv::S {
        (0x141u16, 0x142u16, 0x143u16)
    } else {
        (0x341, 0x342, 0x343)
    };
    hart.traps.csr_shadow.insert(e, epc);
    hart.traps.csr_shadow.insert(c, cause);
    hart.traps.csr_shadow.insert(t, tval);
    hart.emit(Event::TrapEnter {
        cause,
        from,
        to,
        epc,
        tval,
        handler,
    });
    if from != to {
        hart.emit(Event::PrivChange { from, to, pc: epc });
    }
    handler
}

/// Delivers interrupt `code` (irq::select chose it and its mode): xcause
/// with the MSB set, xtval = 0, xepc = `epc`, the next instruction not
/// executed (priv spec §3.1.9, §3.1.15).
pub fn deliver_interrupt<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, code: u64, epc: u64) -> u64 {
    deliver(uc, INTERRUPT | code, epc, 0)
}
