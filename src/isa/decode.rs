//! 32-bit encodings: RV64I, M, A, Zicsr, Zifencei, F/D, the privileged
//! instructions, and the V opcode space (classified only).
//!
//! Major opcodes follow unprivileged spec 20191213 ch. 24, Table 24.1. Fields a
//! format does not have are left zero, so a compressed instruction and its
//! 32-bit expansion decode to the same fields.

use super::fp;
use super::insn::{AluOp, AmoOp, BranchCond, CsrOp, DivOp, Insn, MulOp, Op};

/// Bits `hi..=lo` of `raw`, shifted down.
pub(crate) fn bits(raw: u32, hi: u32, lo: u32) -> u32 {
    (raw >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

/// Sign-extends the low `width` bits of `v`.
pub(crate) fn sext(v: u32, width: u32) -> i64 {
    let shift = 64 - width;
    (i64::from(v) << shift) >> shift
}

fn rd(raw: u32) -> u8 {
    bits(raw, 11, 7) as u8
}
fn rs1(raw: u32) -> u8 {
    bits(raw, 19, 15) as u8
}
fn rs2(raw: u32) -> u8 {
    bits(raw, 24, 20) as u8
}
fn funct3(raw: u32) -> u32 {
    bits(raw, 14, 12)
}

fn blank(raw: u32, op: Op) -> Insn {
    Insn {
        raw,
        len: 4,
        op,
        rd: 0,
        rs1: 0,
        rs2: 0,
        imm: 0,
        csr: 0,
    }
}

/// R-type (and R4-type: rs3 stays in `raw`).
fn r_type(raw: u32, op: Op) -> Insn {
    Insn {
        rd: rd(raw),
        rs1: rs1(raw),
        rs2: rs2(raw),
        ..blank(raw, op)
    }
}

/// I-type with its sign-extended 12-bit immediate.
fn i_type(raw: u32, op: Op) -> Insn {
    let imm = i64::from((raw as i32) >> 20);
    Insn {
        rd: rd(raw),
        rs1: rs1(raw),
        imm,
        ..blank(raw, op)
    }
}

/// I-type whose immediate is a shift amount of `width` bits.
fn shift(raw: u32, op: Op, width: u32) -> Insn {
    Insn {
        imm: i64::from(bits(raw, 19 + width, 20)),
        ..i_type(raw, op)
    }
}

/// S-type (stores).
fn s_type(raw: u32, op: Op) -> Insn {
    let imm = sext(bits(raw, 31, 25) << 5 | bits(raw, 11, 7), 12);
    Insn {
        rs1: rs1(raw),
        rs2: rs2(raw),
        imm,
        ..blank(raw, op)
    }
}

/// U-type: the immediate is kept as the value added (already shifted).
fn u_type(raw: u32, op: Op) -> Insn {
    let imm = i64::from((raw & 0xffff_f000) as i32);
    Insn {
        rd: rd(raw),
        imm,
        ..blank(raw, op)
    }
}

/// Decodes a 32-bit encoding (low two bits 11, bits 4:2 not 111).
pub(crate) fn decode32(raw: u32) -> Option<Insn> {
    let f3 = funct3(raw);
    match raw & 0x7f {
        0x37 => Some(u_type(raw, Op::Lui)),
        0x17 => Some(u_type(raw, Op::Auipc)),
        0x6f => {
            let imm = bits(raw, 31, 31) << 20
                | bits(raw, 19, 12) << 12
                | bits(raw, 20, 20) << 11
                | bits(raw, 30, 21) << 1;
            Some(Insn {
                rd: rd(raw),
                imm: sext(imm, 21),
                ..blank(raw, Op::Jal)
            })
        }
        0x67 if f3 == 0 => Some(i_type(raw, Op::Jalr)),
        0x63 => branch(raw, f3),
        0x03 => {
            let width = 1u8 << (f3 & 3);
            (f3 != 7).then(|| {
                i_type(
                    raw,
                    Op::Load {
                        width,
                        signed: f3 & 4 == 0,
                    },
                )
            })
        }
        0x23 => (f3 < 4).then(|| s_type(raw, Op::Store { width: 1 << f3 })),
        0x13 => op_imm(raw, f3),
        0x1b => op_imm32(raw, f3),
        0x33 => op(raw, f3),
        0x3b => op32(raw, f3),
        0x0f => misc_mem(raw, f3),
        0x73 => system(raw, f3),
        0x2f => amo(raw, f3),
        // LOAD-FP/STORE-FP: widths 2/3 are F/D; 0/5/6/7 are vector element
        // widths (V spec 1.0 §7.3); 1 (Zfh) and 4 (Q) are unsupported.
        0x07 => match f3 {
            2 | 3 => Some(i_type(raw, Op::FpLoad { width: 1 << f3 })),
            0 | 5..=7 => Some(vector(raw)),
            _ => None,
        },
        0x27 => match f3 {
            2 | 3 => Some(s_type(raw, Op::FpStore { width: 1 << f3 })),
            0 | 5..=7 => Some(vector(raw)),
            _ => None,
        },
        0x43 | 0x47 | 0x4b | 0x4f | 0x53 => fp::form(raw).map(|_| r_type(raw, Op::Fp)),
        0x57 => Some(vector(raw)), // OP-V (V spec 1.0 §10)
        _ => None,
    }
}

/// Conditional branches (§2.5 "Conditional Branches").
fn branch(raw: u32, f3: u32) -> Option<Insn> {
    let cond = match f3 {
        0 => BranchCond::Beq,
        1 => BranchCond::Bne,
        4 => BranchCond::Blt,
        5 => BranchCond::Bge,
        6 => BranchCond::Bltu,
        7 => BranchCond::Bgeu,
        _ => return None,
    };
    let imm = bits(raw, 31, 31) << 12
        | bits(raw, 7, 7) << 11
        | bits(raw, 30, 25) << 5
        | bits(raw, 11, 8) << 1;
    Some(Insn {
        imm: sext(imm, 13),
        ..s_type(raw, Op::Branch(cond))
    })
}

/// OP-IMM (§2.4, with RV64's 6-bit shift amounts from §5.2).
fn op_imm(raw: u32, f3: u32) -> Option<Insn> {
    let funct6 = raw >> 26;
    let alu = |op| Some(i_type(raw, Op::AluImm(op)));
    match f3 {
        0 => alu(AluOp::Add),
        2 => alu(AluOp::Slt),
        3 => alu(AluOp::Sltu),
        4 => alu(AluOp::Xor),
        6 => alu(AluOp::Or),
        7 => alu(AluOp::And),
        1 if funct6 == 0 => Some(shift(raw, Op::AluImm(AluOp::Sll), 6)),
        5 if funct6 == 0 => Some(shift(raw, Op::AluImm(AluOp::Srl), 6)),
        5 if funct6 == 0x10 => Some(shift(raw, Op::AluImm(AluOp::Sra), 6)),
        _ => None,
    }
}

/// OP-IMM-32 (§5.2).
fn op_imm32(raw: u32, f3: u32) -> Option<Insn> {
    let funct7 = raw >> 25;
    match (f3, funct7) {
        (0, _) => Some(i_type(raw, Op::AluImm(AluOp::AddW))),
        (1, 0) => Some(shift(raw, Op::AluImm(AluOp::SllW), 5)),
        (5, 0) => Some(shift(raw, Op::AluImm(AluOp::SrlW), 5)),
        (5, 0x20) => Some(shift(raw, Op::AluImm(AluOp::SraW), 5)),
        _ => None,
    }
}

/// OP: base register-register ops (§2.4) and M (ch. 7, funct7 = 1).
fn op(raw: u32, f3: u32) -> Option<Insn> {
    let op = match (raw >> 25, f3) {
        (0, 0) => Op::Alu(AluOp::Add),
        (0x20, 0) => Op::Alu(AluOp::Sub),
        (0, 1) => Op::Alu(AluOp::Sll),
        (0, 2) => Op::Alu(AluOp::Slt),
        (0, 3) => Op::Alu(AluOp::Sltu),
        (0, 4) => Op::Alu(AluOp::Xor),
        (0, 5) => Op::Alu(AluOp::Srl),
        (0x20, 5) => Op::Alu(AluOp::Sra),
        (0, 6) => Op::Alu(AluOp::Or),
        (0, 7) => Op::Alu(AluOp::And),
        (1, 0) => Op::Mul(MulOp::Mul),
        (1, 1) => Op::Mul(MulOp::Mulh),
        (1, 2) => Op::Mul(MulOp::Mulhsu),
        (1, 3) => Op::Mul(MulOp::Mulhu),
        (1, 4) => Op::Div(DivOp::Div),
        (1, 5) => Op::Div(DivOp::Divu),
        (1, 6) => Op::Div(DivOp::Rem),
        (1, 7) => Op::Div(DivOp::Remu),
        _ => return None,
    };
    Some(r_type(raw, op))
}

/// OP-32: RV64I word ops (§5.2) and RV64M word ops (§7.1, §7.2).
fn op32(raw: u32, f3: u32) -> Option<Insn> {
    let op = match (raw >> 25, f3) {
        (0, 0) => Op::Alu(AluOp::AddW),
        (0x20, 0) => Op::Alu(AluOp::SubW),
        (0, 1) => Op::Alu(AluOp::SllW),
        (0, 5) => Op::Alu(AluOp::SrlW),
        (0x20, 5) => Op::Alu(AluOp::SraW),
        (1, 0) => Op::Mul(MulOp::MulW),
        (1, 4) => Op::Div(DivOp::DivW),
        (1, 5) => Op::Div(DivOp::DivuW),
        (1, 6) => Op::Div(DivOp::RemW),
        (1, 7) => Op::Div(DivOp::RemuW),
        _ => return None,
    };
    Some(r_type(raw, op))
}

/// MISC-MEM: FENCE (§2.7) and FENCE.I (ch. 3). Both specs tell base
/// implementations to ignore the reserved rs1/rd/imm fields (and unknown fm
/// values), so those never make the encoding illegal.
fn misc_mem(raw: u32, f3: u32) -> Option<Insn> {
    match f3 {
        0 => Some(Insn {
            imm: i64::from(raw >> 20),
            ..blank(raw, Op::Fence)
        }),
        1 => Some(blank(raw, Op::FenceI)),
        _ => None, // Zicbom/Zicboz/Zicbop are not supported
    }
}

/// SYSTEM: ECALL/EBREAK (§2.8), Zicsr (ch. 9), and the privileged
/// instructions: SRET/MRET (priv spec 20211203 §3.3.2), WFI (§3.3.3),
/// SFENCE.VMA (§4.2.1).
fn system(raw: u32, f3: u32) -> Option<Insn> {
    let csr_op = match f3 {
        0 => {
            let op = match raw {
                0x0000_0073 => Op::Ecall,
                0x0010_0073 => Op::Ebreak,
                0x1020_0073 => Op::Sret,
                0x3020_0073 => Op::Mret,
                0x1050_0073 => Op::Wfi,
                _ if raw >> 25 == 0x09 && rd(raw) == 0 => {
                    return Some(Insn {
                        rs1: rs1(raw),
                        rs2: rs2(raw),
                        ..blank(raw, Op::SfenceVma)
                    });
                }
                _ => return None,
            };
            return Some(blank(raw, op));
        }
        1 => CsrOp::Rw,
        2 => CsrOp::Rs,
        3 => CsrOp::Rc,
        5 => CsrOp::Rwi,
        6 => CsrOp::Rsi,
        7 => CsrOp::Rci,
        _ => return None, // funct3 4: hypervisor loads/stores, unsupported
    };
    let csr = (raw >> 20) as u16;
    Some(Insn {
        rd: rd(raw),
        rs1: rs1(raw),
        csr,
        ..blank(raw, Op::Csr(csr_op))
    })
}

/// AMO opcode: LR/SC (§8.2) and AMOs (§8.4), word and doubleword.
fn amo(raw: u32, f3: u32) -> Option<Insn> {
    let width = match f3 {
        2 => 4,
        3 => 8,
        _ => return None,
    };
    let amo = |op| Some(r_type(raw, Op::Amo { width, op }));
    match raw >> 27 {
        0b00010 if rs2(raw) == 0 => Some(Insn {
            rs2: 0,
            ..r_type(raw, Op::Lr { width })
        }),
        0b00011 => Some(r_type(raw, Op::Sc { width })),
        0b00001 => amo(AmoOp::Swap),
        0b00000 => amo(AmoOp::Add),
        0b00100 => amo(AmoOp::Xor),
        0b01100 => amo(AmoOp::And),
        0b01000 => amo(AmoOp::Or),
        0b10000 => amo(AmoOp::Min),
        0b10100 => amo(AmoOp::Max),
        0b11000 => amo(AmoOp::Minu),
        0b11100 => amo(AmoOp::Maxu),
        _ => None,
    }
}

fn vector(raw: u32) -> Insn {
    r_type(raw, Op::Vector)
}
