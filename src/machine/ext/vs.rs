//! sstatus.VS as trapscope keeps it (unicorn's QEMU has no such field):
//! its values, which CSRs belong to V, the change event with its cause, and
//! the cached text of the instruction that caused it. Below the CSR code
//! and the FS tracking, which report through it; `vec.rs` runs V itself.

use crate::isa::{Insn, Op};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::trace::Event;
use crate::vector;

pub const VS_OFF: u8 = 0;

pub const VS_DIRTY: u8 = 3;

/// Whether a CSR instruction names a vector CSR.
pub fn is_vector_csr(insn: &Insn) -> bool {
    matches!(insn.op, Op::Csr(_)) && vector::VCSRS.contains(&insn.csr)
}

/// Sets the VS field and reports the transition with its cause.
/// `why` is built only when VS does change: it is a disassembly, and
/// every sstatus write comes here.
pub fn set_vs<O: Observer>(
    hart: &mut Hart<O>,
    to: u8,
    pc: u64,
    why: impl FnOnce(&mut Hart<O>) -> String,
) {
    let from = hart.ext.vs;
    if from != to {
        hart.ext.vs = to;
        let why = why(hart);
        hart.emit(Event::VsChange { from, to, pc, why });
    }
}

/// `describe`, kept per pc and encoding: the same few status writes change
/// VS and FS again and again (each trap's entry and return), and the
/// disassembly was most of what such an event cost.
pub(in crate::machine) fn described<O: Observer>(
    hart: &mut Hart<O>,
    insn: &Insn,
    pc: u64,
) -> String {
    hart.ext
        .described
        .entry((pc, insn.raw))
        .or_insert_with(|| vector::disasm(insn, pc))
        .clone()
}
