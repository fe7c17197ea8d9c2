//! The software V unit (V extension 1.0): v0–v31 at a configurable VLEN, the
//! vector CSRs, and execution of the instructions the scenarios need. unicorn's
//! QEMU 5.0 has no V extension, so trapscope runs every vector instruction
//! itself (docs/decisions.md D2, D4).
//!
//! The machine owns a `VUnit` and calls `execute` for each vector instruction
//! it intercepts, through the `VHost` trait (GPRs and memory). The VS field
//! state machine (Off/Initial/Clean/Dirty) is the machine's: `execute` reports
//! whether an instruction changed vector state.

mod decode;
mod exec;
#[cfg(test)]
mod tests;
mod unit;

pub use decode::{AluOp, Operand, VInsn, VOp, decode};
pub use unit::{Effect, VCSRS, VClass, VHost, VTrap, VUnit};

/// Disassembly, vector instructions included: what every pane and report
/// prints for an instruction.
pub fn disasm(insn: &crate::isa::Insn, pc: u64) -> String {
    match insn.op {
        crate::isa::Op::Vector => decode(insn.raw).map_or_else(
            |_| format!(".insn 4, {:#010x}", insn.raw),
            |v| v.to_string(),
        ),
        _ => crate::isa::disasm(insn, pc),
    }
}

/// VLMAX = LMUL·VLEN/SEW for `vtype` at `vlen` bits (V spec 1.0 §3.4.2);
/// `None` when `vtype` has vill set or an encoding this unit would refuse
/// (reserved bits, vsew or vlmul; §3.4.4).
pub fn vlmax(vtype: u64, vlen: u32) -> Option<u64> {
    exec::vlmax(vtype, vlen)
}

impl VUnit {
    /// Runs one vector instruction.
    pub fn execute(&mut self, insn: &VInsn, host: &mut impl VHost) -> Result<Effect, VTrap> {
        exec::execute(self, insn, host)
    }
}
