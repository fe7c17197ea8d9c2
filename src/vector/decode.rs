//! Decoding of vector encodings into [`VInsn`]: the configuration
//! instructions (V spec 1.0 §6.1), the LOAD-FP/STORE-FP vector forms (§7.1,
//! §7.3) and OP-V (§10.1).
//!
//! Three outcomes, because the guest and the user need to tell them apart:
//! an instruction trapscope runs (`Ok`), a valid V 1.0 instruction it does not
//! run (`VTrap::Unsupported` naming it, so the run can stop with a clear
//! message), and a reserved encoding (`VTrap::Illegal`, which the guest sees as
//! an illegal-instruction exception, as §5 recommends for reserved encodings).

mod disasm;
mod names;

use super::unit::VTrap;

/// Bits `hi..=lo` of `raw`, shifted down.
fn bits(raw: u32, hi: u32, lo: u32) -> u32 {
    (raw >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

/// A decoded vector instruction; `raw` is kept for trap values and listings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VInsn {
    pub raw: u32,
    pub op: VOp,
}

/// The second operand of an OPIVV/OPIVX/OPIVI instruction (§10.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// `.vv`: vector register group vs1.
    V(u8),
    /// `.vx`: integer register rs1.
    X(u8),
    /// `.vi`: the sign-extended 5-bit immediate.
    I(i8),
}

/// Single-width integer operations (§11.1 add/sub, §11.5 bitwise logical).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
}

/// The instructions trapscope runs. Register fields are 5-bit numbers;
/// element widths (`eew`) are in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VOp {
    /// `vsetvli rd, rs1, vtypei` (§6.1).
    Vsetvli { rd: u8, rs1: u8, vtypei: u16 },
    /// `vsetivli rd, uimm, vtypei` (§6.1).
    Vsetivli { rd: u8, uimm: u8, vtypei: u16 },
    /// `vsetvl rd, rs1, rs2` (§6.1).
    Vsetvl { rd: u8, rs1: u8, rs2: u8 },
    /// `vmv.v.v` / `vmv.v.x` / `vmv.v.i` (§11.16).
    Mv { vd: u8, src: Operand },
    /// `vmv.x.s rd, vs2` (§16.1).
    MvXS { rd: u8, vs2: u8 },
    /// `vmv.s.x vd, rs1` (§16.1).
    MvSX { vd: u8, rs1: u8 },
    /// `vid.v vd` (§15.9).
    Id { vd: u8 },
    /// `vadd`/`vsub`/`vand`/`vor`/`vxor` `.vv`/`.vx`/`.vi`, unmasked.
    Alu {
        op: AluOp,
        vd: u8,
        vs2: u8,
        src: Operand,
    },
    /// `vle<eew>.v vd, (rs1)`, unmasked (§7.4).
    Load { eew: u32, vd: u8, rs1: u8 },
    /// `vse<eew>.v vs3, (rs1)`, unmasked (§7.4).
    Store { eew: u32, vs3: u8, rs1: u8 },
    /// `vl<nregs>re<eew>.v vd, (rs1)` (§7.9).
    LoadWhole {
        nregs: u32,
        eew: u32,
        vd: u8,
        rs1: u8,
    },
    /// `vs<nregs>r.v vs3, (rs1)` (§7.9).
    StoreWhole { nregs: u32, vs3: u8, rs1: u8 },
}

/// Decodes a vector encoding: major opcode LOAD-FP (0x07) or STORE-FP (0x27)
/// with a vector width, or OP-V (0x57).
pub fn decode(raw: u32) -> Result<VInsn, VTrap> {
    let op = match raw & 0x7f {
        0x07 => memory(raw, false)?,
        0x27 => memory(raw, true)?,
        0x57 => op_v(raw)?,
        _ => return Err(VTrap::Illegal("not a vector instruction")),
    };
    Ok(VInsn { raw, op })
}

fn unsupported(name: impl Into<String>) -> VTrap {
    VTrap::Unsupported(name.into())
}

/// Vector loads and stores (§7.1 field layout, §7.3 width encoding).
fn memory(raw: u32, store: bool) -> Result<VOp, VTrap> {
    let eew = match bits(raw, 14, 12) {
        0 => 8,
        5 => 16,
        6 => 32,
        7 => 64,
        _ => return Err(VTrap::Illegal("not a vector load/store width")),
    };
    if bits(raw, 28, 28) == 1 {
        // mew = 1 selects EEW of 128 bits and up, reserved in V 1.0 (§7.3).
        return Err(VTrap::Illegal("reserved vector load/store width (mew=1)"));
    }
    let nf = bits(raw, 31, 29);
    let mop = bits(raw, 27, 26);
    let masked = bits(raw, 25, 25) == 0;
    let umop = bits(raw, 24, 20);
    let vd = bits(raw, 11, 7) as u8;
    let rs1 = bits(raw, 19, 15) as u8;
    let (l, seg) = (if store { "s" } else { "l" }, nf + 1);
    match (mop, umop) {
        (0, 0b00000) if nf != 0 => Err(unsupported(format!("v{l}seg{seg}e{eew}.v"))),
        (0, 0b00000) if masked => Err(unsupported(format!("v{l}e{eew}.v (masked)"))),
        (0, 0b00000) if store => Ok(VOp::Store { eew, vs3: vd, rs1 }),
        (0, 0b00000) => Ok(VOp::Load { eew, vd, rs1 }),
        (0, 0b01000) => whole_register(raw, store, eew, vd, rs1),
        (0, 0b01011) if nf == 0 && eew == 8 => Err(unsupported(format!("v{l}m.v"))),
        (0, 0b10000) if !store && nf != 0 => Err(unsupported(format!("vlseg{seg}e{eew}ff.v"))),
        (0, 0b10000) if !store => Err(unsupported(format!("vle{eew}ff.v"))),
        (0, _) => Err(VTrap::Illegal("reserved unit-stride vector load/store")),
        (2, _) if nf != 0 => Err(unsupported(format!("v{l}sseg{seg}e{eew}.v"))),
        (2, _) => Err(unsupported(format!("v{l}se{eew}.v"))),
        (_, _) => {
            let order = if mop == 1 { "u" } else { "o" };
            let seg = if nf != 0 {
                format!("seg{seg}")
            } else {
                String::new()
            };
            Err(unsupported(format!("v{l}{order}x{seg}ei{eew}.v")))
        }
    }
}

/// Whole-register loads and stores (§7.9): nf encodes 1, 2, 4 or 8 registers;
/// stores are encoded with EEW = 8 only, and both are unmasked only.
fn whole_register(raw: u32, store: bool, eew: u32, vd: u8, rs1: u8) -> Result<VOp, VTrap> {
    let nregs = match bits(raw, 31, 29) {
        0 => 1,
        1 => 2,
        3 => 4,
        7 => 8,
        _ => return Err(VTrap::Illegal("reserved whole-register field count")),
    };
    if bits(raw, 25, 25) == 0 {
        return Err(VTrap::Illegal("reserved masked whole-register load/store"));
    }
    match store {
        true if eew != 8 => Err(VTrap::Illegal("reserved whole-register store width")),
        true => Ok(VOp::StoreWhole {
            nregs,
            vs3: vd,
            rs1,
        }),
        false => Ok(VOp::LoadWhole {
            nregs,
            eew,
            vd,
            rs1,
        }),
    }
}

/// OP-V: funct3 picks the operand kinds (§10.1), funct6 the operation.
fn op_v(raw: u32) -> Result<VOp, VTrap> {
    let funct3 = bits(raw, 14, 12);
    let vd = bits(raw, 11, 7) as u8;
    let field = bits(raw, 19, 15) as u8; // vs1, rs1 or simm5
    let vs2 = bits(raw, 24, 20) as u8;
    match funct3 {
        7 => config(raw, vd, field),
        0 => op_i(raw, vd, vs2, Operand::V(field)),
        3 => op_i(raw, vd, vs2, Operand::I(((field << 3) as i8) >> 3)),
        4 => op_i(raw, vd, vs2, Operand::X(field)),
        2 | 6 => op_m(raw, funct3 == 6, vd, vs2, field),
        _ => Err(unsupported(names::op_f(raw))),
    }
}

/// vsetvli (bit 31 = 0), vsetivli (bits 31:30 = 11), vsetvl (bits 31:25 =
/// 1000000); the remaining patterns are reserved (§6.1 encoding figure).
fn config(raw: u32, rd: u8, rs1: u8) -> Result<VOp, VTrap> {
    match bits(raw, 31, 30) {
        0 | 1 => Ok(VOp::Vsetvli {
            rd,
            rs1,
            vtypei: bits(raw, 30, 20) as u16,
        }),
        3 => Ok(VOp::Vsetivli {
            rd,
            uimm: rs1,
            vtypei: bits(raw, 29, 20) as u16,
        }),
        _ if bits(raw, 29, 25) == 0 => Ok(VOp::Vsetvl {
            rd,
            rs1,
            rs2: bits(raw, 24, 20) as u8,
        }),
        _ => Err(VTrap::Illegal("reserved vset* encoding")),
    }
}

/// OPIVV / OPIVX / OPIVI.
fn op_i(raw: u32, vd: u8, vs2: u8, src: Operand) -> Result<VOp, VTrap> {
    let funct6 = bits(raw, 31, 26);
    let masked = bits(raw, 25, 25) == 0;
    let op = match (funct6, src) {
        (0b000000, _) => AluOp::Add,
        (0b000010, Operand::V(_) | Operand::X(_)) => AluOp::Sub,
        (0b001001, _) => AluOp::And,
        (0b001010, _) => AluOp::Or,
        (0b001011, _) => AluOp::Xor,
        // vmv.v.* is the unmasked vmerge with vs2 = v0 (§11.15, §11.16).
        (0b010111, _) if masked => return Err(unsupported_or_reserved(names::op_i(raw, src))),
        (0b010111, _) if vs2 != 0 => return Err(VTrap::Illegal("reserved vmv.v.* with vs2 != 0")),
        (0b010111, _) => return Ok(VOp::Mv { vd, src }),
        _ => return Err(unsupported_or_reserved(names::op_i(raw, src))),
    };
    if masked {
        let name = names::op_i(raw, src).unwrap_or_default();
        return Err(unsupported(format!("{name} (masked)")));
    }
    Ok(VOp::Alu { op, vd, vs2, src })
}

/// OPMVV / OPMVX: of these trapscope runs vmv.x.s, vmv.s.x and vid.v.
fn op_m(raw: u32, x: bool, vd: u8, vs2: u8, vs1: u8) -> Result<VOp, VTrap> {
    let funct6 = bits(raw, 31, 26);
    let masked = bits(raw, 25, 25) == 0;
    match (funct6, x, vs1, vs2) {
        // VWXUNARY0 vs1 = 0 and RXUNARY0 vs2 = 0 are unmasked only (§16.1).
        (0b010000, false, 0, _) if masked => Err(VTrap::Illegal("reserved masked vmv.x.s")),
        (0b010000, false, 0, _) => Ok(VOp::MvXS { rd: vd, vs2 }),
        (0b010000, true, _, 0) if masked => Err(VTrap::Illegal("reserved masked vmv.s.x")),
        (0b010000, true, _, 0) => Ok(VOp::MvSX { vd, rs1: vs1 }),
        // VMUNARY0 vs1 = 10001 is vid.v, whose vs2 field must be 0 (§15.9).
        (0b010100, false, 0b10001, 0) if masked => Err(unsupported("vid.v (masked)")),
        (0b010100, false, 0b10001, 0) => Ok(VOp::Id { vd }),
        (0b010100, false, 0b10001, _) => Err(VTrap::Illegal("reserved vid.v with vs2 != 0")),
        _ => Err(unsupported_or_reserved(names::op_m(raw, x))),
    }
}

/// A name from the tables means a valid instruction; none means reserved.
fn unsupported_or_reserved(name: Option<String>) -> VTrap {
    match name {
        Some(name) => VTrap::Unsupported(name),
        None => VTrap::Illegal("reserved OP-V encoding"),
    }
}
