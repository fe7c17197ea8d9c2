//! sstatus.FS apart from the hart: its values, and which instructions make
//! it Dirty. What follows from a change (events, the split of a block) is
//! in `fstate.rs`.

use crate::isa::{Insn, Op, Reg};
use crate::machine::regs::status;

pub const FS_OFF: u8 = 0;

pub const FS_INITIAL: u8 = 1;

pub const FS_DIRTY: u8 = 3;

pub(in crate::machine) const FS_SHIFT: u32 = 13;

/// The FS field of a status value.
pub fn fs_of(status: u64) -> u8 {
    ((status & status::FS) >> FS_SHIFT) as u8
}

/// Whether QEMU 5.0 makes FS Dirty when `insn` runs: a write of an f
/// register (loads, computations with an f result, moves and conversions
/// into f) or a CSR write of fflags/frm/fcsr. Stores, compares, fclass and
/// conversions to an integer leave FS alone there.
pub fn dirties(insn: &Insn) -> bool {
    match insn.op {
        Op::Csr(_) => matches!(insn.csr, 1..=3) && crate::machine::traps::csr_rules::writes(insn),
        Op::FpLoad { .. } | Op::Fp => matches!(insn.dest(), Some(Reg::F(_))),
        _ => false,
    }
}
