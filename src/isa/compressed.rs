//! RV64C: expands 16-bit encodings to the fields of their 32-bit equivalents.
//!
//! Follows unprivileged spec 20191213 ch. 16 "C" Standard Extension, with the
//! quadrant listings of §16.8 (Tables 16.5-16.7). Encodings the spec marks
//! reserved decode to `None`; HINTs (e.g. `c.li x0, 1`) are legal and decode
//! to their expansion, which has no architectural effect.

use super::decode::{bits, sext};
use super::insn::{AluOp, BranchCond, Insn, Op};

const LW: Op = Op::Load {
    width: 4,
    signed: true,
};
const LD: Op = Op::Load {
    width: 8,
    signed: true,
};
const SW: Op = Op::Store { width: 4 };
const SD: Op = Op::Store { width: 8 };
const FLD: Op = Op::FpLoad { width: 8 };
const FSD: Op = Op::FpStore { width: 8 };
const ADDI: Op = Op::AluImm(AluOp::Add);

fn blank(raw: u32, op: Op) -> Insn {
    Insn {
        raw,
        len: 2,
        op,
        rd: 0,
        rs1: 0,
        rs2: 0,
        imm: 0,
        csr: 0,
    }
}

/// Full register number of a 3-bit "prime" field (x8..x15, f8..f15).
fn prime(raw: u32, lo: u32) -> u8 {
    8 + bits(raw, lo + 2, lo) as u8
}

/// Full 5-bit rd/rs1 field at bits 11:7.
fn rd_full(raw: u32) -> u8 {
    bits(raw, 11, 7) as u8
}

/// Full 5-bit rs2 field at bits 6:2.
fn rs2_full(raw: u32) -> u8 {
    bits(raw, 6, 2) as u8
}

/// The 6-bit immediate imm[5] = bit 12, imm[4:0] = bits 6:2, sign-extended.
fn imm6(raw: u32) -> i64 {
    sext(bits(raw, 12, 12) << 5 | bits(raw, 6, 2), 6)
}

/// The same bits unsigned: a 6-bit shift amount.
fn shamt6(raw: u32) -> i64 {
    i64::from(bits(raw, 12, 12) << 5 | bits(raw, 6, 2))
}

fn insn(raw: u32, op: Op, rd: u8, rs1: u8, rs2: u8, imm: i64) -> Insn {
    Insn {
        rd,
        rs1,
        rs2,
        imm,
        ..blank(raw, op)
    }
}

/// Decodes a 16-bit encoding (low two bits not 11).
pub(crate) fn decode16(raw: u16) -> Option<Insn> {
    let raw = u32::from(raw);
    let funct3 = bits(raw, 15, 13);
    match raw & 3 {
        0 => quadrant0(raw, funct3),
        1 => quadrant1(raw, funct3),
        2 => quadrant2(raw, funct3),
        _ => None,
    }
}

/// Offset of the CL/CS-format doubleword accesses: uimm[5:3] = bits 12:10,
/// uimm[7:6] = bits 6:5.
fn uimm_d(raw: u32) -> i64 {
    i64::from(bits(raw, 12, 10) << 3 | bits(raw, 6, 5) << 6)
}

/// Offset of the CL/CS-format word accesses: uimm[5:3] = bits 12:10,
/// uimm[2] = bit 6, uimm[6] = bit 5.
fn uimm_w(raw: u32) -> i64 {
    i64::from(bits(raw, 12, 10) << 3 | bits(raw, 6, 6) << 2 | bits(raw, 5, 5) << 6)
}

/// Quadrant 0 (Table 16.5): c.addi4spn and register-based loads/stores.
fn quadrant0(raw: u32, funct3: u32) -> Option<Insn> {
    let (rd, rs1) = (prime(raw, 2), prime(raw, 7));
    Some(match funct3 {
        0 => {
            let nzuimm = bits(raw, 12, 11) << 4
                | bits(raw, 10, 7) << 6
                | bits(raw, 6, 6) << 2
                | bits(raw, 5, 5) << 3;
            if nzuimm == 0 {
                return None; // includes the all-zero illegal instruction
            }
            insn(raw, ADDI, rd, 2, 0, i64::from(nzuimm))
        }
        1 => insn(raw, FLD, rd, rs1, 0, uimm_d(raw)),
        2 => insn(raw, LW, rd, rs1, 0, uimm_w(raw)),
        3 => insn(raw, LD, rd, rs1, 0, uimm_d(raw)),
        5 => insn(raw, FSD, 0, rs1, rd, uimm_d(raw)),
        6 => insn(raw, SW, 0, rs1, rd, uimm_w(raw)),
        7 => insn(raw, SD, 0, rs1, rd, uimm_d(raw)),
        _ => return None, // funct3 4 is reserved in RV64C
    })
}

/// Quadrant 1 (Table 16.6): immediates, c.lui, register ALU ops, jumps and
/// branches.
fn quadrant1(raw: u32, funct3: u32) -> Option<Insn> {
    let rd = rd_full(raw);
    Some(match funct3 {
        0 => insn(raw, ADDI, rd, rd, 0, imm6(raw)), // c.addi, c.nop
        1 if rd == 0 => return None,                // c.addiw with rd = x0 is reserved
        1 => insn(raw, Op::AluImm(AluOp::AddW), rd, rd, 0, imm6(raw)),
        2 => insn(raw, ADDI, rd, 0, 0, imm6(raw)), // c.li
        3 if rd == 2 => {
            let nzimm = bits(raw, 12, 12) << 9
                | bits(raw, 6, 6) << 4
                | bits(raw, 5, 5) << 6
                | bits(raw, 4, 3) << 7
                | bits(raw, 2, 2) << 5;
            if nzimm == 0 {
                return None;
            }
            insn(raw, ADDI, 2, 2, 0, sext(nzimm, 10)) // c.addi16sp
        }
        3 => {
            let nzimm = bits(raw, 12, 12) << 17 | bits(raw, 6, 2) << 12;
            if nzimm == 0 {
                return None;
            }
            insn(raw, Op::Lui, rd, 0, 0, sext(nzimm, 18))
        }
        4 => return misc_alu(raw),
        5 => {
            let off = bits(raw, 12, 12) << 11
                | bits(raw, 11, 11) << 4
                | bits(raw, 10, 9) << 8
                | bits(raw, 8, 8) << 10
                | bits(raw, 7, 7) << 6
                | bits(raw, 6, 6) << 7
                | bits(raw, 5, 3) << 1
                | bits(raw, 2, 2) << 5;
            insn(raw, Op::Jal, 0, 0, 0, sext(off, 12)) // c.j
        }
        _ => {
            // funct3 6 and 7: c.beqz, c.bnez
            let off = bits(raw, 12, 12) << 8
                | bits(raw, 11, 10) << 3
                | bits(raw, 6, 5) << 6
                | bits(raw, 4, 3) << 1
                | bits(raw, 2, 2) << 5;
            let cond = if funct3 == 6 {
                BranchCond::Beq
            } else {
                BranchCond::Bne
            };
            insn(raw, Op::Branch(cond), 0, prime(raw, 7), 0, sext(off, 9))
        }
    })
}

/// Quadrant 1, funct3 100: c.srli, c.srai, c.andi and the CA-format ops.
fn misc_alu(raw: u32) -> Option<Insn> {
    let (rd, rs2) = (prime(raw, 7), prime(raw, 2));
    let imm = |op| Some(insn(raw, Op::AluImm(op), rd, rd, 0, shamt6(raw)));
    match bits(raw, 11, 10) {
        0 => imm(AluOp::Srl),
        1 => imm(AluOp::Sra),
        2 => Some(insn(raw, Op::AluImm(AluOp::And), rd, rd, 0, imm6(raw))),
        _ => {
            let op = match (bits(raw, 12, 12), bits(raw, 6, 5)) {
                (0, 0) => AluOp::Sub,
                (0, 1) => AluOp::Xor,
                (0, 2) => AluOp::Or,
                (0, 3) => AluOp::And,
                (1, 0) => AluOp::SubW,
                (1, 1) => AluOp::AddW,
                _ => return None,
            };
            Some(insn(raw, Op::Alu(op), rd, rd, rs2, 0))
        }
    }
}

/// Quadrant 2 (Table 16.7): c.slli, sp-relative loads/stores, and the
/// c.jr/c.mv/c.ebreak/c.jalr/c.add group.
fn quadrant2(raw: u32, funct3: u32) -> Option<Insn> {
    let (rd, rs2) = (rd_full(raw), rs2_full(raw));
    // uimm[5] = bit 12, uimm[4:3] = bits 6:5, uimm[8:6] = bits 4:2
    let ldsp = i64::from(bits(raw, 12, 12) << 5 | bits(raw, 6, 5) << 3 | bits(raw, 4, 2) << 6);
    // uimm[5:3] = bits 12:10, uimm[8:6] = bits 9:7
    let sdsp = i64::from(bits(raw, 12, 10) << 3 | bits(raw, 9, 7) << 6);
    Some(match funct3 {
        0 => insn(raw, Op::AluImm(AluOp::Sll), rd, rd, 0, shamt6(raw)),
        1 => insn(raw, FLD, rd, 2, 0, ldsp),
        2 if rd != 0 => {
            // uimm[5] = bit 12, uimm[4:2] = bits 6:4, uimm[7:6] = bits 3:2
            let off = bits(raw, 12, 12) << 5 | bits(raw, 6, 4) << 2 | bits(raw, 3, 2) << 6;
            insn(raw, LW, rd, 2, 0, i64::from(off))
        }
        3 if rd != 0 => insn(raw, LD, rd, 2, 0, ldsp),
        4 => {
            let add = bits(raw, 12, 12) == 1;
            match (add, rd, rs2) {
                (false, 0, 0) => return None, // c.jr x0 is reserved
                (false, _, 0) => insn(raw, Op::Jalr, 0, rd, 0, 0), // c.jr
                (false, _, _) => insn(raw, Op::Alu(AluOp::Add), rd, 0, rs2, 0), // c.mv
                (true, 0, 0) => blank(raw, Op::Ebreak),
                (true, _, 0) => insn(raw, Op::Jalr, 1, rd, 0, 0), // c.jalr
                (true, _, _) => insn(raw, Op::Alu(AluOp::Add), rd, rd, rs2, 0), // c.add
            }
        }
        5 => insn(raw, FSD, 0, 2, rs2, sdsp),
        6 => {
            // uimm[5:2] = bits 12:9, uimm[7:6] = bits 8:7
            let off = bits(raw, 12, 9) << 2 | bits(raw, 8, 7) << 6;
            insn(raw, SW, 0, 2, rs2, i64::from(off))
        }
        7 => insn(raw, SD, 0, 2, rs2, sdsp),
        _ => return None, // c.lwsp/c.ldsp with rd = x0 are reserved
    })
}
