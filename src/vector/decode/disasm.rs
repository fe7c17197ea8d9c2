//! Disassembly of the instructions trapscope runs, in binutils 2.40's
//! `objdump -M no-aliases` spelling with ", " between operands (the style of
//! `crate::isa::disasm`), so a listing shows `vxor.vi v8, v16, -1` rather
//! than an alias the reader must expand.

use std::fmt;

use super::{AluOp, Operand, VInsn, VOp};

/// ABI names of x0..x31 (psABI "Integer Register Convention").
const ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

fn x(r: u8) -> &'static str {
    ABI[usize::from(r & 31)]
}

/// The vtype immediate as the assembler spells it (V spec §3.4): SEW, LMUL,
/// tail and mask policy; a value with reserved fields set prints as a number.
struct Vtypei(u16);

impl fmt::Display for Vtypei {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let (vlmul, vsew) = (v & 7, (v >> 3) & 7);
        if v >> 8 != 0 || vsew > 3 || vlmul == 4 {
            return write!(f, "{v}");
        }
        let lmul = ["m1", "m2", "m4", "m8", "", "mf8", "mf4", "mf2"][usize::from(vlmul)];
        let ta = if v & 0x40 != 0 { "ta" } else { "tu" };
        let ma = if v & 0x80 != 0 { "ma" } else { "mu" };
        write!(f, "e{}, {lmul}, {ta}, {ma}", 8 << vsew)
    }
}

/// The form letter (`.vv`, `.vx`, `.vi`) and the operand text.
fn operand(src: Operand) -> (char, String) {
    match src {
        Operand::V(r) => ('v', format!("v{r}")),
        Operand::X(r) => ('x', x(r).to_string()),
        Operand::I(i) => ('i', i.to_string()),
    }
}

fn alu_name(op: AluOp) -> &'static str {
    match op {
        AluOp::Add => "vadd",
        AluOp::Sub => "vsub",
        AluOp::And => "vand",
        AluOp::Or => "vor",
        AluOp::Xor => "vxor",
    }
}

impl fmt::Display for VInsn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.op {
            VOp::Vsetvli { rd, rs1, vtypei } => {
                write!(f, "vsetvli {}, {}, {}", x(rd), x(rs1), Vtypei(vtypei))
            }
            VOp::Vsetivli { rd, uimm, vtypei } => {
                write!(f, "vsetivli {}, {uimm}, {}", x(rd), Vtypei(vtypei))
            }
            VOp::Vsetvl { rd, rs1, rs2 } => write!(f, "vsetvl {}, {}, {}", x(rd), x(rs1), x(rs2)),
            VOp::Mv { vd, src } => {
                let (l, s) = operand(src);
                write!(f, "vmv.v.{l} v{vd}, {s}")
            }
            VOp::MvXS { rd, vs2 } => write!(f, "vmv.x.s {}, v{vs2}", x(rd)),
            VOp::MvSX { vd, rs1 } => write!(f, "vmv.s.x v{vd}, {}", x(rs1)),
            VOp::Id { vd } => write!(f, "vid.v v{vd}"),
            VOp::Alu { op, vd, vs2, src } => {
                let (l, s) = operand(src);
                write!(f, "{}.v{l} v{vd}, v{vs2}, {s}", alu_name(op))
            }
            VOp::Load { eew, vd, rs1 } => write!(f, "vle{eew}.v v{vd}, ({})", x(rs1)),
            VOp::Store { eew, vs3, rs1 } => write!(f, "vse{eew}.v v{vs3}, ({})", x(rs1)),
            VOp::LoadWhole {
                nregs,
                eew,
                vd,
                rs1,
            } => {
                write!(f, "vl{nregs}re{eew}.v v{vd}, ({})", x(rs1))
            }
            VOp::StoreWhole { nregs, vs3, rs1 } => write!(f, "vs{nregs}r.v v{vs3}, ({})", x(rs1)),
        }
    }
}
