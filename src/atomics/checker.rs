//! Constrained LR/SC sequences (unpriv spec §8.3, "Eventual Success of
//! Store-Conditional Instructions"): the loop is at most 16 instructions
//! placed sequentially; between the LR and the SC only base-I instructions
//! run, with no loads, stores, backward jumps or taken backward branches,
//! JALR, FENCE, FENCE.I or SYSTEM instructions; the SC goes to the LR's
//! address with the LR's size. A probe (a trap) inside such a sequence makes
//! every attempt fail, which is why the kernel rejects probes there
//! (seed 004, patch 1).

use crate::isa::{DecodedInsn, decode_range};
use crate::isa::{Op, RasHint};
use crate::program::Program;

/// The LR/SC sequence around an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    pub lr: u64,
    pub sc: u64,
    /// Why it is not a constrained sequence (empty: it is).
    pub violations: Vec<Violation>,
}

/// A §8.3 rule an LR/SC sequence breaks (`Sequence::violations`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// The instruction at `pc`, between the LR and the SC, is `what` ("a
    /// load", "FENCE", "an instruction outside base I").
    #[error("{pc:#x}: {what}")]
    Instruction { pc: u64, what: &'static str },
    #[error("the SC's size differs from the LR's")]
    Size,
    #[error("the SC may not address the LR's reservation")]
    Address,
    /// `count` instructions, the LR and SC and the retry branch included.
    #[error("{count} instructions: more than 16")]
    TooLong { count: usize },
}

/// Why a probe may not sit at an address (`probe_allowed`). The places are
/// as `Program::describe` names them, for the message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeRejected {
    /// `pc` is after the LR at `lr` and up to its SC at `sc`.
    #[error(
        "{place} is inside the LR/SC sequence {lr_place} .. {sc_place}: a probe there traps on every attempt, the trap path's sc drops the reservation, and the SC can never succeed"
    )]
    InSequence {
        pc: u64,
        lr: u64,
        sc: u64,
        place: String,
        lr_place: String,
        sc_place: String,
    },
}

/// Instructions the §8.3 rules allow between the LR and the SC.
fn allowed(d: &DecodedInsn) -> Result<(), Violation> {
    let outside = "an instruction outside base I";
    let Some(i) = d.insn else {
        return Err(Violation::Instruction {
            pc: d.pc,
            what: outside,
        });
    };
    let bad = match i.op {
        Op::Lui | Op::Auipc | Op::AluImm(_) | Op::Alu(_) => None,
        Op::Branch(_) if i.imm > 0 => None,
        Op::Branch(_) => Some("a backward branch"),
        Op::Jal if i.imm > 0 && i.ras_hint() == RasHint::None => None,
        Op::Jal if i.imm <= 0 => Some("a backward jump"),
        Op::Jal => Some("a call (it leaves the sequence)"),
        Op::Jalr => Some("JALR"),
        Op::Load { .. } | Op::FpLoad { .. } => Some("a load"),
        Op::Store { .. } | Op::FpStore { .. } => Some("a store"),
        Op::Fence => Some("FENCE"),
        Op::FenceI => Some("FENCE.I"),
        Op::Ecall | Op::Ebreak | Op::Sret | Op::Mret | Op::Wfi | Op::SfenceVma | Op::Csr(_) => {
            Some("a SYSTEM instruction")
        }
        Op::Lr { .. } | Op::Sc { .. } | Op::Amo { .. } => Some("another atomic"),
        Op::Mul(_) | Op::Div(_) | Op::Fp | Op::Vector => Some(outside),
    };
    match bad {
        None => Ok(()),
        Some(what) => Err(Violation::Instruction { pc: d.pc, what }),
    }
}

/// How far to look for the LR and the SC around an address.
const WINDOW: usize = 256;

/// The sequence (if any) whose LR..SC span contains `pc`, in `insns`.
pub fn sequence_in(insns: &[DecodedInsn], pc: u64) -> Option<Sequence> {
    let at = insns.iter().position(|d| d.pc == pc)?;
    // Back to the LR (further than 16 instructions, so that too-long
    // sequences are found and reported), not past an SC.
    let lr = (at.saturating_sub(WINDOW)..=at).rev().find_map(|i| {
        let op = insns[i].insn.map(|x| x.op);
        match op {
            Some(Op::Lr { .. }) => Some(Some(i)),
            Some(Op::Sc { .. }) if i != at => Some(None),
            _ => None,
        }
    })??;
    let sc = (lr + 1..(lr + WINDOW).min(insns.len()))
        .find(|&i| matches!(insns[i].insn.map(|x| x.op), Some(Op::Sc { .. })))?;
    if at > sc {
        return None;
    }
    let mut violations: Vec<Violation> = insns[lr + 1..sc]
        .iter()
        .filter_map(|d| allowed(d).err())
        .collect();
    let (l, s) = (insns[lr].insn?, insns[sc].insn?);
    let width = |o: Op| match o {
        Op::Lr { width } | Op::Sc { width } => width,
        _ => 0,
    };
    if width(l.op) != width(s.op) {
        violations.push(Violation::Size);
    }
    if l.rs1 != s.rs1
        || insns[lr + 1..sc]
            .iter()
            .any(|d| d.insn.is_some_and(|i| i.rd == l.rs1 && l.rs1 != 0))
    {
        violations.push(Violation::Address);
    }
    if sc - lr + 2 > 16 {
        violations.push(Violation::TooLong { count: sc - lr + 2 });
    }
    Some(Sequence {
        lr: insns[lr].pc,
        sc: insns[sc].pc,
        violations,
    })
}

/// The sequence around `pc` in a program's code (decoded from the start of
/// the function holding it, since compressed code cannot be read backwards).
pub fn sequence_at(p: &Program, pc: u64) -> Option<Sequence> {
    let (sym, _) = p.symbol_at(pc)?;
    let len = if sym.size > 0 {
        sym.size
    } else {
        (pc - sym.addr) + 64
    };
    let bytes = p.text_bytes(sym.addr, len as usize)?;
    sequence_in(&decode_range(sym.addr, bytes), pc)
}

/// Whether a probe (a trap taken before the instruction runs) may sit at
/// `pc`: not between an LR and its SC, where every attempt would then fail.
pub fn probe_allowed(p: &Program, pc: u64) -> Result<(), ProbeRejected> {
    match sequence_at(p, pc) {
        Some(s) if pc > s.lr => Err(ProbeRejected::InSequence {
            pc,
            lr: s.lr,
            sc: s.sc,
            place: p.describe(pc),
            lr_place: p.describe(s.lr),
            sc_place: p.describe(s.sc),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From riscv64-linux-gnu-as -march=rv64gc (.option norvc), at 0:
    ///   good: 1: lr.w.aq a5,(a0); bne a5,a1,2f; sc.w.rl a6,a2,(a0); bnez a6,1b; 2: ret
    ///   bad:  1: lr.w a5,(a0); lw t0,0(a1); addi a5,a5,1; sc.w a6,a5,(a0); bnez a6,1b; ret
    const CODE: [u32; 11] = [
        0x140527af, 0x00b79663, 0x1ac5282f, 0xfe081ae3, 0x00008067, // good, 0x00..0x10
        0x100527af, 0x0005a283, 0x00178793, 0x18f5282f, 0xfe0818e3,
        0x00008067, // bad, 0x14..0x28
    ];

    fn insns() -> Vec<DecodedInsn> {
        let bytes: Vec<u8> = CODE.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode_range(0, &bytes)
    }

    #[test]
    fn a_cmpxchg_loop_is_a_constrained_sequence() {
        // The bne between lr and sc is a forward branch: allowed (§8.3).
        let s = sequence_in(&insns(), 0x4).unwrap();
        assert_eq!((s.lr, s.sc), (0x0, 0x8));
        assert!(s.violations.is_empty(), "{:?}", s.violations);
        // The sc itself is inside; the retry branch after it is not.
        assert!(sequence_in(&insns(), 0x8).is_some());
        assert_eq!(sequence_in(&insns(), 0xc), None);
    }

    #[test]
    fn a_load_between_lr_and_sc_breaks_the_rules() {
        let s = sequence_in(&insns(), 0x1c).unwrap();
        assert_eq!((s.lr, s.sc), (0x14, 0x20));
        let words: Vec<String> = s.violations.iter().map(ToString::to_string).collect();
        assert_eq!(words, vec!["0x18: a load".to_string()]);
    }

    #[test]
    fn code_outside_any_sequence_has_none() {
        assert_eq!(sequence_in(&insns(), 0x10), None);
        assert_eq!(sequence_in(&insns(), 0x28), None);
    }
}

#[cfg(test)]
mod long_sequences {
    use super::*;

    #[test]
    fn a_sequence_longer_than_16_instructions_is_found_and_flagged() {
        // lr.w a5,(a0); 16 x addi a5,a5,1; sc.w a6,a5,(a0): 18 instructions
        // (encodings: lr.w 0x100527af, addi 0x00178793, sc.w 0x18f5282f).
        let mut words = vec![0x100527afu32];
        words.extend(std::iter::repeat_n(0x00178793u32, 16));
        words.push(0x18f5282f);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let insns = decode_range(0, &bytes);
        let s = sequence_in(&insns, 0x20).unwrap();
        assert_eq!((s.lr, s.sc), (0, 0x44));
        assert!(
            s.violations
                .iter()
                .any(|v| v.to_string().contains("more than 16")),
            "{:?}",
            s.violations
        );
    }
}
