//! Instructions decoded where they sit in guest memory: what the machine's
//! observers, the predictors, the cost model and the LR/SC checker read.

use super::{Insn, decode_word, insn_len};

/// One instruction as observers see it.
#[derive(Clone, Copy, Debug)]
pub struct DecodedInsn {
    pub pc: u64,
    pub raw: u32,
    pub len: u8,
    /// `None` when our decoder does not know the encoding (the emulator may).
    pub insn: Option<Insn>,
}

/// Decodes `bytes` (guest memory at `start`) into instructions.
pub fn decode_range(start: u64, bytes: &[u8]) -> Vec<DecodedInsn> {
    let mut out = Vec::new();
    let mut off = 0usize;
    while off + 2 <= bytes.len() {
        let lo = u16::from_le_bytes([bytes[off], bytes[off + 1]]);
        let len = insn_len(lo).unwrap_or(4) as usize;
        if off + len > bytes.len() {
            break;
        }
        let raw = if len == 2 {
            u32::from(lo)
        } else {
            u32::from_le_bytes([bytes[off], bytes[off + 1], bytes[off + 2], bytes[off + 3]])
        };
        out.push(DecodedInsn {
            pc: start + off as u64,
            raw,
            len: len as u8,
            insn: decode_word(raw),
        });
        off += len;
    }
    out
}
