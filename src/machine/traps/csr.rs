//! CSR instructions trapscope runs itself (docs/decisions.md D4): accesses to
//! sstatus/mstatus, so the VS field and SD round-trip (unicorn's QEMU 5.0 masks
//! them away), and reads of cycle/time/instret, which return the model's
//! counters so a guest that times itself sees modelled time. mstatus also
//! carries TSR and TW at the spec's bits 22/21 (QEMU 5.0 has them at 30/29)
//! and UXL/SXL, which read 2 on RV64 (priv spec §3.1.6.2, §3.1.6.5).

use unicorn_engine::Unicorn;

use crate::isa::{CsrOp, Insn, Op};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::regs::{self, status};
use crate::machine::traps::csr_rules::{
    CYCLE, INSTRET, MINSTRET, MSTATUS, SSTATUS, TIME, status_to_qemu, status_view, writes,
};
use crate::trace::{Event, Priv};

/// `sret` with mstatus.TSR=1 in S-mode raises illegal instruction (priv
/// spec §3.1.6.5); QEMU 5.0 checks its own bit 30, which trapscope keeps
/// clear, so it never does. Everywhere else `sret` runs natively (in U it
/// is illegal there too).
pub fn sret_traps<O: Observer>(uc: &Unicorn<'_, Hart<O>>) -> bool {
    let hart = uc.get_data();
    hart.priv_ == Priv::S && hart.traps.status_extra & status::TSR != 0
}

/// The illegal-instruction trap an access raises, if any.
pub enum CsrResult {
    Done,
    Illegal,
}

/// Emulates an intercepted CSR instruction: reads, writes, writes rd.
pub fn emulate<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, pc: u64, insn: &Insn) -> CsrResult {
    let Op::Csr(op) = insn.op else {
        return CsrResult::Illegal;
    };
    let cur = uc.get_data().priv_;
    let csr = insn.csr;
    let wr = writes(insn);
    if cur < regs::csr_min_priv(csr) || (wr && (csr >> 10) & 3 == 3) {
        return CsrResult::Illegal;
    }
    let src = match op {
        CsrOp::Rwi | CsrOp::Rsi | CsrOp::Rci => u64::from(insn.rs1),
        _ => regs::read_gpr(uc, insn.rs1),
    };
    let apply = |old: u64| match op {
        CsrOp::Rw | CsrOp::Rwi => src,
        CsrOp::Rs | CsrOp::Rsi => old | src,
        CsrOp::Rc | CsrOp::Rci => old & !src,
    };
    let old = match csr {
        SSTATUS | MSTATUS => {
            let raw = regs::read_csr(uc, csr).unwrap_or(0);
            let (vs, extra) = (uc.get_data().ext.vs, uc.get_data().traps.status_extra);
            let old = status_view(csr, raw, vs, extra);
            if wr {
                let new = apply(old);
                regs::write_csr(uc, csr, status_to_qemu(new));
                let raw_after = regs::read_csr(uc, csr).unwrap_or(0);
                let hart = uc.get_data_mut();
                if csr == MSTATUS {
                    hart.traps.status_extra =
                        (hart.traps.status_extra & !status::SHADOWED) | (new & status::SHADOWED);
                }
                let vs = ((new & status::VS) >> status::VS_SHIFT) as u8;
                let name = if csr == SSTATUS { "sstatus" } else { "mstatus" };
                crate::machine::ext::vs::set_vs(hart, vs, pc, |h| {
                    format!(
                        "{} writes {name}",
                        crate::machine::ext::vs::described(h, insn, pc)
                    )
                });
                // FS as QEMU keeps it after the write (fstate.rs).
                crate::machine::ext::fstate::changed(
                    hart,
                    crate::machine::ext::fs::fs_of(raw_after),
                    pc,
                    |h| {
                        format!(
                            "{} writes {name}",
                            crate::machine::ext::vs::described(h, insn, pc)
                        )
                    },
                );
                let shown = status_view(csr, raw_after, hart.ext.vs, hart.traps.status_extra);
                hart.traps.csr_shadow.insert(csr, shown);
                hart.emit(Event::CsrWrite {
                    pc,
                    csr,
                    old: Some(old),
                    new: shown,
                });
            }
            old
        }
        c if crate::machine::debug::state::is_trigger_csr(c) => {
            match crate::machine::debug::trigger::csr_access(uc, pc, c, wr.then_some(&apply)) {
                Some(v) => v,
                None => return CsrResult::Illegal,
            }
        }
        c if crate::machine::devices::irq::is_shadowed(c) => irq_csr(uc, pc, c, wr, &apply),
        _ => {
            // Counter access from S/U is gated by mcounteren, and from U also
            // by scounteren (priv spec 1.12 §3.1.11, §4.1.5).
            if matches!(csr, CYCLE | TIME | INSTRET) && cur != Priv::M {
                let bit = 1u64 << (csr - CYCLE);
                let m = regs::read_csr(uc, 0x306).unwrap_or(0);
                let s = regs::read_csr(uc, 0x106).unwrap_or(0);
                let ok = m & bit != 0 && (cur == Priv::S || s & bit != 0);
                if !ok {
                    return CsrResult::Illegal;
                }
            }
            let hart = uc.get_data_mut();
            hart.clock.clock_reads.0 += 1;
            hart.clock.clock_reads.1.get_or_insert(pc);
            let value = match (hart.clock.counted_clock, csr) {
                // QEMU's clock (`verify`): cycle and instret count its
                // instructions as time does.
                (Some(c), TIME) => c.time(hart.executed),
                (Some(c), _) => c.ns(hart.executed),
                (None, INSTRET | MINSTRET) => hart.instret_value(),
                (None, TIME) => hart.time_value(),
                (None, _) => hart.cycle_value(),
            };
            if wr {
                let new = apply(value);
                let hart = uc.get_data_mut();
                // The write replaces this instruction's own increment (Zicsr
                // §9.1): the next instruction reads `new`.
                let delta = i128::from(new) - i128::from(value) - i128::from(csr == MINSTRET);
                if csr == MINSTRET {
                    hart.clock.instret_offset += delta;
                } else {
                    hart.clock.cycle_offset += delta;
                }
                hart.emit(Event::CsrWrite {
                    pc,
                    csr,
                    old: Some(value),
                    new,
                });
            }
            value
        }
    };
    regs::write_gpr(uc, insn.rd, old);
    CsrResult::Done
}

/// mie/mip/mideleg/sie/sip from trapscope's shadow (docs/decisions.md D10):
/// unicorn's copies stay zero, so QEMU never takes an interrupt itself. A
/// read-modify-write of mip uses the software-written SEIP, not the line
/// (priv spec §3.1.9). Returns the old value.
fn irq_csr<O: Observer>(
    uc: &mut Unicorn<'_, Hart<O>>,
    pc: u64,
    csr: u16,
    wr: bool,
    apply: &dyn Fn(u64) -> u64,
) -> u64 {
    use crate::machine::devices::irq::{self, SEI, bit};
    let hart = uc.get_data_mut();
    let lines = hart.devices.platform.lines(hart.time_value());
    let old = hart.devices.irq.read(csr, lines);
    if wr {
        let base = if csr == irq::MIP {
            (old & !bit(SEI)) | (hart.devices.irq.mip_sw & bit(SEI))
        } else {
            old
        };
        hart.devices.irq.write(csr, apply(base));
        let new = hart.devices.irq.read(csr, lines);
        hart.traps.csr_shadow.insert(csr, new);
        hart.emit(Event::CsrWrite {
            pc,
            csr,
            old: Some(old),
            new,
        });
    }
    old
}
