//! F and D computational instructions (unprivileged spec 20191213 ch. 11 "F"
//! and ch. 12 "D"). One table answers both "is this encoding defined?" for the
//! decoder and "how is it written?" for the disassembler, so they cannot drift.

use super::insn::Insn;
use super::names::{freg, xreg};

/// Which register files the operands come from, destination first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// fd, fs1, fs2
    Fff,
    /// fd, fs1, fs2, fs3 (fused multiply-add)
    Ffff,
    /// fd, fs1
    Ff,
    /// xd, fs1
    Xf,
    /// fd, xs1
    Fx,
    /// xd, fs1, fs2 (comparisons)
    Xff,
}

impl Shape {
    pub(crate) fn int_dest(self) -> bool {
        matches!(self, Shape::Xf | Shape::Xff)
    }
}

/// How an instruction uses the funct3 rounding-mode field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rm {
    /// funct3 selects the operation.
    None,
    /// A rounding mode; assemblers default to (and objdump omits) `dyn`.
    Dyn,
    /// A rounding mode that cannot matter (exact conversions); assemblers
    /// default to (and objdump omits) `rne`.
    Exact,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    pub name: &'static str,
    pub shape: Shape,
    pub rm: Rm,
}

/// Rounding-mode names by funct3 (§11.2, Table 11.1); 5 and 6 are reserved.
const RM_NAMES: [&str; 8] = ["rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"];

/// The form of an F/D computational encoding, or `None` if it is not one
/// (including half/quad formats and reserved rounding modes).
pub(crate) fn form(raw: u32) -> Option<Form> {
    let double = match (raw >> 25) & 3 {
        0 => false,
        1 => true,
        _ => return None, // fmt H (Zfh) and Q are not supported
    };
    let pick = |s: &'static str, d: &'static str| if double { d } else { s };
    let fused = |s, d| {
        Some(Form {
            name: pick(s, d),
            shape: Shape::Ffff,
            rm: Rm::Dyn,
        })
    };
    let form = match raw & 0x7f {
        0x43 => fused("fmadd.s", "fmadd.d"),
        0x47 => fused("fmsub.s", "fmsub.d"),
        0x4b => fused("fnmsub.s", "fnmsub.d"),
        0x4f => fused("fnmadd.s", "fnmadd.d"),
        0x53 => op_fp(raw, double),
        _ => None,
    }?;
    let rm = (raw >> 12) & 7;
    if form.rm != Rm::None && (rm == 5 || rm == 6) {
        return None;
    }
    Some(form)
}

/// The OP-FP major opcode, keyed by funct5 (bits 31:27); listings in
/// unprivileged spec 20191213 ch. 24 "RV32/64G Instruction Set Listings".
fn op_fp(raw: u32, double: bool) -> Option<Form> {
    use Shape::*;
    let funct3 = (raw >> 12) & 7;
    let rs2 = ((raw >> 20) & 31) as usize;
    let fmt = usize::from(double);
    let f = |name, shape, rm| Some(Form { name, shape, rm });
    match raw >> 27 {
        0b00000 => f(["fadd.s", "fadd.d"][fmt], Fff, Rm::Dyn),
        0b00001 => f(["fsub.s", "fsub.d"][fmt], Fff, Rm::Dyn),
        0b00010 => f(["fmul.s", "fmul.d"][fmt], Fff, Rm::Dyn),
        0b00011 => f(["fdiv.s", "fdiv.d"][fmt], Fff, Rm::Dyn),
        0b01011 if rs2 == 0 => f(["fsqrt.s", "fsqrt.d"][fmt], Ff, Rm::Dyn),
        0b00100 => {
            const SGNJ: [[&str; 3]; 2] = [
                ["fsgnj.s", "fsgnjn.s", "fsgnjx.s"],
                ["fsgnj.d", "fsgnjn.d", "fsgnjx.d"],
            ];
            f(*SGNJ[fmt].get(funct3 as usize)?, Fff, Rm::None)
        }
        0b00101 => {
            const MINMAX: [[&str; 2]; 2] = [["fmin.s", "fmax.s"], ["fmin.d", "fmax.d"]];
            f(*MINMAX[fmt].get(funct3 as usize)?, Fff, Rm::None)
        }
        0b01000 if double && rs2 == 0 => f("fcvt.d.s", Ff, Rm::Exact),
        0b01000 if !double && rs2 == 1 => f("fcvt.s.d", Ff, Rm::Dyn),
        0b10100 => {
            const CMP: [[&str; 3]; 2] = [["fle.s", "flt.s", "feq.s"], ["fle.d", "flt.d", "feq.d"]];
            f(*CMP[fmt].get(funct3 as usize)?, Xff, Rm::None)
        }
        0b11000 => {
            const TO_INT: [[&str; 4]; 2] = [
                ["fcvt.w.s", "fcvt.wu.s", "fcvt.l.s", "fcvt.lu.s"],
                ["fcvt.w.d", "fcvt.wu.d", "fcvt.l.d", "fcvt.lu.d"],
            ];
            f(*TO_INT[fmt].get(rs2)?, Xf, Rm::Dyn)
        }
        0b11010 => {
            const FROM_INT: [[&str; 4]; 2] = [
                ["fcvt.s.w", "fcvt.s.wu", "fcvt.s.l", "fcvt.s.lu"],
                ["fcvt.d.w", "fcvt.d.wu", "fcvt.d.l", "fcvt.d.lu"],
            ];
            // A 32-bit integer always fits a double exactly.
            let rm = if double && rs2 < 2 {
                Rm::Exact
            } else {
                Rm::Dyn
            };
            f(*FROM_INT[fmt].get(rs2)?, Fx, rm)
        }
        0b11100 if rs2 == 0 && funct3 == 0 => f(["fmv.x.w", "fmv.x.d"][fmt], Xf, Rm::None),
        0b11100 if rs2 == 0 && funct3 == 1 => f(["fclass.s", "fclass.d"][fmt], Xf, Rm::None),
        0b11110 if rs2 == 0 && funct3 == 0 => f(["fmv.w.x", "fmv.d.x"][fmt], Fx, Rm::None),
        _ => None,
    }
}

/// objdump-style text for an `Op::Fp` instruction.
pub(crate) fn disasm(insn: &Insn) -> String {
    let Some(form) = form(insn.raw) else {
        return format!(".insn 4, {:#010x}", insn.raw);
    };
    let (rd, rs1, rs2) = (insn.rd, insn.rs1, insn.rs2);
    let rs3 = ((insn.raw >> 27) & 31) as u8;
    // fsgnj* with equal sources are the fmv/fneg/fabs idioms (§11.7).
    if form.shape == Shape::Fff
        && rs1 == rs2
        && let Some(alias) = sign_alias(form.name)
    {
        return format!("{alias} {}, {}", freg(rd), freg(rs1));
    }
    let mut text = match form.shape {
        Shape::Fff => format!("{} {}, {}, {}", form.name, freg(rd), freg(rs1), freg(rs2)),
        Shape::Ffff => format!(
            "{} {}, {}, {}, {}",
            form.name,
            freg(rd),
            freg(rs1),
            freg(rs2),
            freg(rs3)
        ),
        Shape::Ff => format!("{} {}, {}", form.name, freg(rd), freg(rs1)),
        Shape::Xf => format!("{} {}, {}", form.name, xreg(rd), freg(rs1)),
        Shape::Fx => format!("{} {}, {}", form.name, freg(rd), xreg(rs1)),
        Shape::Xff => format!("{} {}, {}, {}", form.name, xreg(rd), freg(rs1), freg(rs2)),
    };
    let rm = ((insn.raw >> 12) & 7) as usize;
    let implied = match form.rm {
        Rm::None => true,
        Rm::Dyn => rm == 7,
        Rm::Exact => rm == 0,
    };
    if !implied {
        text.push_str(", ");
        text.push_str(RM_NAMES[rm]);
    }
    text
}

fn sign_alias(name: &str) -> Option<&'static str> {
    Some(match name {
        "fsgnj.s" => "fmv.s",
        "fsgnjn.s" => "fneg.s",
        "fsgnjx.s" => "fabs.s",
        "fsgnj.d" => "fmv.d",
        "fsgnjn.d" => "fneg.d",
        "fsgnjx.d" => "fabs.d",
        _ => return None,
    })
}

/// How an F/D computational instruction reads the f registers, for the
/// NaN-boxing rule (unprivileged spec 20191213 §12.2 "NaN Boxing of
/// Narrower Values") and trapscope's fmin/fmax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpReads {
    /// The operation's name, as objdump writes it (`fadd.s`).
    pub name: &'static str,
    /// f-register inputs, in order rs1, rs2, rs3 (0 to 3).
    pub f_inputs: u8,
    /// The f inputs are single-precision, so they must be NaN-boxed. The
    /// source format is a name's last suffix: `fcvt.d.s` reads a single,
    /// `fcvt.s.d` a double; `fmv.x.w` moves raw bits and is exempt.
    pub single: bool,
    /// fmin/fmax (.s or .d).
    pub minmax: bool,
    /// The funct3 field is a rounding mode.
    pub rounds: bool,
    /// The result goes to an x register.
    pub int_dest: bool,
    /// The result is a single in an f register, so it must be NaN-boxed:
    /// `.s` operations, `fcvt.s.*` and `fmv.w.x` (not `fcvt.d.s`).
    pub single_dest: bool,
}

/// `FpReads` for an `Op::Fp` encoding; `None` if it is not one.
pub fn reads(raw: u32) -> Option<FpReads> {
    let f = form(raw)?;
    let f_inputs = match f.shape {
        Shape::Ffff => 3,
        Shape::Fff | Shape::Xff => 2,
        Shape::Ff | Shape::Xf => 1,
        Shape::Fx => 0,
    };
    Some(FpReads {
        name: f.name,
        f_inputs,
        single: f_inputs > 0 && f.name.ends_with(".s"),
        minmax: f.name.starts_with("fmin") || f.name.starts_with("fmax"),
        rounds: f.rm != Rm::None,
        int_dest: f.shape.int_dest(),
        single_dest: !f.shape.int_dest()
            && ((f.name.ends_with(".s") && !f.name.starts_with("fcvt.d."))
                || f.name.starts_with("fcvt.s.")
                || f.name == "fmv.w.x"),
    })
}

#[cfg(test)]
mod reads_tests {
    use super::reads;

    /// An OP-FP encoding: funct5, fmt (0 S, 1 D), rs2 field, funct3.
    fn op_fp(funct5: u32, fmt: u32, rs2: u32, funct3: u32) -> u32 {
        funct5 << 27 | fmt << 25 | rs2 << 20 | 11 << 15 | funct3 << 12 | 10 << 7 | 0x53
    }

    #[test]
    fn source_and_destination_formats_follow_the_names() {
        // (encoding, name, single inputs, single result, fmin/fmax)
        let cases = [
            (op_fp(0b00000, 0, 12, 7), "fadd.s", true, true, false),
            (op_fp(0b00000, 1, 12, 7), "fadd.d", false, false, false),
            (op_fp(0b01000, 1, 0, 0), "fcvt.d.s", true, false, false),
            (op_fp(0b01000, 0, 1, 7), "fcvt.s.d", false, true, false),
            (op_fp(0b11100, 0, 0, 0), "fmv.x.w", false, false, false),
            (op_fp(0b11110, 0, 0, 0), "fmv.w.x", false, true, false),
            (op_fp(0b11010, 0, 0, 7), "fcvt.s.w", false, true, false),
            (op_fp(0b11000, 0, 0, 7), "fcvt.w.s", true, false, false),
            (op_fp(0b10100, 0, 12, 2), "feq.s", true, false, false),
            (op_fp(0b11100, 0, 0, 1), "fclass.s", true, false, false),
            (op_fp(0b00101, 1, 12, 0), "fmin.d", false, false, true),
            (op_fp(0b00101, 0, 12, 1), "fmax.s", true, true, true),
            (op_fp(0b00100, 0, 12, 2), "fsgnjx.s", true, true, false),
        ];
        for (raw, name, single, single_dest, minmax) in cases {
            let r = reads(raw).unwrap();
            assert_eq!(r.name, name);
            assert_eq!(r.single, single, "{name}");
            assert_eq!(r.single_dest, single_dest, "{name}");
            assert_eq!(r.minmax, minmax, "{name}");
        }
        // fmadd.s reads three singles.
        let fmadd = 12 << 27 | 12 << 20 | 11 << 15 | 7 << 12 | 10 << 7 | 0x43;
        let r = reads(fmadd).unwrap();
        assert_eq!((r.name, r.f_inputs, r.single), ("fmadd.s", 3, true));
    }
}
