//! The CSR facts trapscope's own CSR code and its decoder share, apart from
//! the hart: CSR numbers, which CSR instructions trapscope runs itself, what
//! an instruction writes, and how mstatus maps to and from unicorn's QEMU.

use crate::isa::{CsrOp, Insn, Op};
use crate::machine::regs::status;

pub const SSTATUS: u16 = 0x100;

pub const MSTATUS: u16 = 0x300;

pub(in crate::machine) const CYCLE: u16 = 0xc00;

pub(in crate::machine) const TIME: u16 = 0xc01;

pub(in crate::machine) const INSTRET: u16 = 0xc02;

pub(in crate::machine) const MCYCLE: u16 = 0xb00;

pub(in crate::machine) const MINSTRET: u16 = 0xb02;

/// Where QEMU 5.0 keeps TW (bit 29) and TSR (bit 30). The spec has WPRI
/// bits there, so trapscope never lets a guest write them into QEMU (where
/// they would make `wfi`/`sret` trap natively) and never shows them.
pub(in crate::machine) const QEMU_TW_TSR: u64 = 3 << 29;

/// Whether trapscope must run this CSR instruction itself.
pub fn must_intercept(insn: &Insn) -> bool {
    matches!(insn.op, Op::Csr(_))
        && (matches!(
            insn.csr,
            SSTATUS | MSTATUS | CYCLE | TIME | INSTRET | MCYCLE | MINSTRET
        ) || crate::machine::debug::state::is_trigger_csr(insn.csr)
            || crate::machine::devices::irq::is_shadowed(insn.csr))
}

/// mstatus or sstatus as the guest reads it, from QEMU's raw value: the VS
/// shadow and SD merged in (§3.1.6.6); for mstatus, TSR/TW from
/// `status_extra`; UXL (and, in mstatus, SXL) read-only 2 = 64-bit, since
/// this hart's XLEN is fixed (§3.1.6.2: WARL, and sstatus shows UXL only).
pub fn status_view(csr: u16, raw: u64, vs: u8, extra: u64) -> u64 {
    let raw = raw & !(QEMU_TW_TSR | status::UXL | status::SXL | status::SHADOWED);
    let v = status::compose(raw, vs) | status::XL64 << status::UXL_SHIFT;
    if csr == MSTATUS {
        v | (extra & status::SHADOWED) | status::XL64 << status::SXL_SHIFT
    } else {
        v
    }
}

/// The bits of a guest's status write that go into QEMU: not the fields
/// trapscope keeps itself (VS, TSR, TW), not the read-only ones (SD, UXL,
/// SXL), and not QEMU's misplaced TW/TSR.
pub(in crate::machine) fn status_to_qemu(new: u64) -> u64 {
    new & !(status::VS | status::SD | status::SHADOWED | QEMU_TW_TSR | status::UXL | status::SXL)
}

/// Whether a CSR instruction writes its CSR (csrrs/csrrc with x0 do not;
/// priv spec / Zicsr §9.1).
pub fn writes(insn: &Insn) -> bool {
    match insn.op {
        Op::Csr(CsrOp::Rw) | Op::Csr(CsrOp::Rwi) => true,
        Op::Csr(_) => insn.rs1 != 0,
        _ => false,
    }
}
