//! RISC-V RV64 instruction decoding and disassembly.
//!
//! Covers RV64I, M, A, F, D, C, Zicsr, Zifencei and the privileged
//! instructions trapscope's guests execute around traps (sret, mret, wfi,
//! sfence.vma); V instructions are only recognised as [`Op::Vector`].
//! Specs cited: the Unprivileged ISA 20191213 ("unprivileged spec"), the
//! Privileged Architecture 20211203 ("priv spec") and the V extension 1.0.
//!
//! Decoding is total and panic-free: an encoding this module does not know is
//! `None`, which callers turn into an illegal-instruction value (convention 8).

mod compressed;
mod decode;
mod decoded;
mod disasm;
pub mod fp;
mod insn;
mod names;

#[cfg(test)]
mod tests;

pub use decoded::{DecodedInsn, decode_range};
pub use disasm::{disasm, disasm_named, jump_target, pair_target};
pub use insn::{AluOp, AmoOp, BranchCond, Class, CsrOp, DivOp, Insn, MulOp, Op, RasHint, Reg};
pub use names::{ABI, FABI, csr_name};

/// Length in bytes of the instruction whose low 16 bits are `lo`: 2 or 4.
/// The 48-bit and longer encodings (unprivileged spec §1.5, Figure 1.1) are
/// `None`; no ratified RV64 extension uses them.
pub fn insn_len(lo: u16) -> Option<u8> {
    if lo & 0b11 != 0b11 {
        Some(2)
    } else if lo & 0b1_1100 != 0b1_1100 {
        Some(4)
    } else {
        None
    }
}

/// Decodes the instruction at the start of `bytes` (little-endian, as
/// fetched). Needs 2 bytes for a compressed instruction and 4 otherwise;
/// `None` if too short, reserved, or unknown.
pub fn decode(bytes: &[u8]) -> Option<Insn> {
    let lo = u16::from_le_bytes([*bytes.first()?, *bytes.get(1)?]);
    match insn_len(lo)? {
        2 => compressed::decode16(lo),
        _ => {
            let word: [u8; 4] = bytes.get(..4)?.try_into().ok()?;
            decode::decode32(u32::from_le_bytes(word))
        }
    }
}

/// Decodes a 32-bit encoding, or a 16-bit one zero-extended. When the low
/// half is a compressed instruction the upper half is ignored, so a 4-byte
/// fetch can be passed as is.
pub fn decode_word(raw: u32) -> Option<Insn> {
    let lo = raw as u16;
    match insn_len(lo)? {
        2 => compressed::decode16(lo),
        _ => decode::decode32(raw),
    }
}
