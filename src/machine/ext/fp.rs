//! The F/D corners unicorn's QEMU 5.0 gets wrong, run by trapscope
//! (unprivileged spec 20191213 ch. 11 "F", ch. 12 "D"):
//! - `fmin`/`fmax` follow the current rules, IEEE 754-2019 minimumNumber /
//!   maximumNumber (F spec §11.6 as amended for v2.2): a NaN input gives
//!   the other operand, two NaNs the canonical NaN, -0 < +0, and any
//!   signaling NaN input sets NV.
//! - A single-precision input that is not NaN-boxed (its upper 32 bits not
//!   all ones) is the canonical NaN (§12.2 "NaN Boxing of Narrower Values").
//!   Only flw/fsw and fmv.x.w/fmv.w.x move such values unchanged.
//!
//! QEMU 5.0 boxes only what `flw` loads: its single-precision results and
//! `fmv.w.x` leave the upper half zero (or, for fmv.w.x, x's upper half).
//! fpflow.rs boxes them, and decides per block which instructions with
//! single inputs this hook sees.
//!
//! The hook always emulates fmin/fmax. The others it sees run natively
//! when every input is boxed, and are emulated here otherwise. With a
//! canonical-NaN input an arithmetic result is the canonical NaN, and NV is raised only where
//! IEEE 754 and the F spec say: a signaling NaN input, a signaling compare
//! (flt/fle) with a NaN, an FMA of ∞×0 (§11.6: "even when the addend is a
//! quiet NaN"), a conversion of NaN to an integer (which gives the largest
//! value, §11.7 table 11.4). fsgnj* and fclass use the canonical NaN's bits.
//! mstatus.FS Off makes them illegal, and writing an f register or fflags
//! sets FS Dirty (priv spec §3.1.6.6), as QEMU's own translation does.

use unicorn_engine::{RegisterRISCV as R, Unicorn};

use crate::isa::fp::{FpReads, reads};
use crate::isa::{Insn, Op};
use crate::machine::hart::Hart;
use crate::machine::observe::Observer;
use crate::machine::regs::{self, status};

/// The canonical NaNs (§11.3: positive, quiet, payload zero).
pub const CANON_S: u32 = 0x7fc0_0000;
pub const CANON_D: u64 = 0x7ff8_0000_0000_0000;
/// fflags.NV (§11.2, Table 11.2).
const NV: u64 = 0x10;
const BOX: u64 = 0xffff_ffff_0000_0000;

/// What the hook does with an intercepted FP instruction.
pub enum FpResult {
    /// Let unicorn run it.
    Native,
    /// Emulated: go on at pc + 4.
    Done,
    Illegal,
}

/// Whether trapscope must look at this instruction wherever it is:
/// fmin/fmax. The NaN-boxing hooks depend on the block (fpflow.rs).
pub fn must_intercept(insn: &Insn) -> bool {
    insn.op == Op::Fp && reads(insn.raw).is_some_and(|r| r.minmax)
}

fn freg<D>(uc: &Unicorn<'_, D>, i: u8) -> u64 {
    uc.reg_read(R::F0 as i32 + i32::from(i & 31)).unwrap_or(0)
}

/// A single-precision input: its low 32 bits if NaN-boxed, else the
/// canonical NaN (§12.2).
pub fn unbox(v: u64) -> (u32, bool) {
    if v & BOX == BOX {
        (v as u32, true)
    } else {
        (CANON_S, false)
    }
}

/// An IEEE binary32/binary64 value's class, from its bits.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Bits {
    v: u64,
    /// Exponent width and fraction width.
    double: bool,
}

impl Bits {
    fn frac_bits(self) -> u32 {
        if self.double { 52 } else { 23 }
    }
    fn exp_mask(self) -> u64 {
        if self.double { 0x7ff } else { 0xff }
    }
    fn sign(self) -> bool {
        self.v >> (if self.double { 63 } else { 31 }) & 1 == 1
    }
    fn exp(self) -> u64 {
        (self.v >> self.frac_bits()) & self.exp_mask()
    }
    fn frac(self) -> u64 {
        self.v & ((1u64 << self.frac_bits()) - 1)
    }
    fn is_nan(self) -> bool {
        self.exp() == self.exp_mask() && self.frac() != 0
    }
    /// A NaN whose quiet bit (the fraction's top bit) is clear (§11.3).
    fn is_snan(self) -> bool {
        self.is_nan() && self.frac() >> (self.frac_bits() - 1) == 0
    }
    fn is_inf(self) -> bool {
        self.exp() == self.exp_mask() && self.frac() == 0
    }
    fn is_zero(self) -> bool {
        self.exp() == 0 && self.frac() == 0
    }
    fn as_f64(self) -> f64 {
        if self.double {
            f64::from_bits(self.v)
        } else {
            f64::from(f32::from_bits(self.v as u32))
        }
    }
}

/// fmin/fmax: IEEE 754-2019 minimumNumber/maximumNumber (F spec §11.6).
/// Returns the result bits and whether NV is raised.
pub fn min_max(a: u64, b: u64, double: bool, max: bool) -> (u64, bool) {
    let (x, y) = (Bits { v: a, double }, Bits { v: b, double });
    let nv = x.is_snan() || y.is_snan();
    let r = match (x.is_nan(), y.is_nan()) {
        (true, true) => {
            if double {
                CANON_D
            } else {
                u64::from(CANON_S)
            }
        }
        (true, false) => b,
        (false, true) => a,
        // -0 < +0: between two zeros the sign decides.
        _ if x.is_zero() && y.is_zero() => {
            if x.sign() != max {
                a
            } else {
                b
            }
        }
        _ => {
            let a_less = x.as_f64() < y.as_f64();
            if a_less != max { a } else { b }
        }
    };
    (r, nv)
}

/// fclass (§11.9): the one-hot class of a value.
fn fclass(x: Bits) -> u64 {
    let neg = x.sign();
    let bit = if x.is_nan() {
        if x.is_snan() { 8 } else { 9 }
    } else if x.is_inf() {
        if neg { 0 } else { 7 }
    } else if x.is_zero() {
        if neg { 3 } else { 4 }
    } else if x.exp() == 0 {
        if neg { 2 } else { 5 }
    } else if neg {
        1
    } else {
        6
    };
    1 << bit
}

/// What an emulated instruction produces.
struct Out {
    /// (f register?, value) for rd.
    rd: Option<(bool, u64)>,
    flags: u64,
}

/// Emulates `insn` with its inputs `x` (single inputs already unboxed,
/// zero-extended). Only called with at least one canonical-NaN input or for
/// fmin/fmax, so arithmetic results are the canonical NaN.
fn compute(insn: &Insn, r: &FpReads, x: [u64; 3]) -> Out {
    let raw = insn.raw;
    let double_fmt = (raw >> 25) & 3 == 1;
    let in_double = !r.single;
    let b = |v| Bits {
        v,
        double: in_double,
    };
    let snan = x[..usize::from(r.f_inputs)].iter().any(|&v| b(v).is_snan());
    let nv = |cond: bool| if cond { NV } else { 0 };
    let boxed = |v: u32| BOX | u64::from(v);
    let funct3 = (raw >> 12) & 7;
    let f = |v| Out {
        rd: Some((true, v)),
        flags: nv(snan),
    };
    match raw & 0x7f {
        // FMA family, fmt S: ∞×0 is invalid even with a quiet-NaN addend.
        0x43 | 0x47 | 0x4b | 0x4f => {
            let inf_zero =
                (b(x[0]).is_inf() && b(x[1]).is_zero()) || (b(x[0]).is_zero() && b(x[1]).is_inf());
            Out {
                rd: Some((true, boxed(CANON_S))),
                flags: nv(snan || inf_zero),
            }
        }
        _ => match raw >> 27 {
            0b00100 => {
                let (a, s) = (x[0] as u32, x[1] as u32);
                let sign = match funct3 {
                    0 => s,
                    1 => !s,
                    _ => a ^ s,
                } & 0x8000_0000;
                Out {
                    rd: Some((true, boxed((a & 0x7fff_ffff) | sign))),
                    flags: 0,
                }
            }
            0b00101 => {
                let (v, inv) = min_max(x[0], x[1], double_fmt, funct3 == 1);
                let v = if double_fmt { v } else { boxed(v as u32) };
                Out {
                    rd: Some((true, v)),
                    flags: nv(inv),
                }
            }
            // fcvt.d.s of a NaN: the canonical double NaN.
            0b01000 => f(CANON_D),
            0b10100 => Out {
                // Every compare with a NaN is false; flt/fle signal.
                rd: Some((false, 0)),
                flags: nv(snan || funct3 != 2),
            },
            0b11000 => {
                // §11.7 Table 11.4: NaN converts to the largest value.
                let v = match insn.rs2 {
                    0 => i32::MAX as u64,
                    1 => u32::MAX as i32 as i64 as u64,
                    2 => i64::MAX as u64,
                    _ => u64::MAX,
                };
                Out {
                    rd: Some((false, v)),
                    flags: NV,
                }
            }
            0b11100 => Out {
                rd: Some((false, fclass(b(x[0])))),
                flags: 0,
            },
            // add, sub, mul, div, sqrt: NaN in, canonical NaN out.
            _ => f(boxed(CANON_S)),
        },
    }
}

/// Runs an intercepted FP instruction, or lets unicorn run it.
pub fn run<O: Observer>(uc: &mut Unicorn<'_, Hart<O>>, insn: &Insn) -> FpResult {
    let Some(r) = reads(insn.raw) else {
        return FpResult::Native;
    };
    let srcs = [insn.rs1, insn.rs2, ((insn.raw >> 27) & 31) as u8];
    let mut x = [0u64; 3];
    let mut all_boxed = true;
    for (i, &s) in srcs.iter().enumerate().take(usize::from(r.f_inputs)) {
        let v = freg(uc, s);
        x[i] = if r.single {
            let (u, ok) = unbox(v);
            all_boxed &= ok;
            u64::from(u)
        } else {
            v
        };
    }
    // fmin/fmax of two numbers: QEMU 5.0 gives IEEE 754-2008 minNum /
    // maxNum, which differ from the current rules only for NaN inputs.
    let numbers = || {
        x[..2].iter().all(|&v| {
            !Bits {
                v,
                double: !r.single,
            }
            .is_nan()
        })
    };
    if all_boxed && (!r.minmax || numbers()) {
        // Native: a single result is boxed once it is reported (fpflow.rs).
        return FpResult::Native;
    }
    let ms = regs::read_csr(uc, 0x300).unwrap_or(0);
    if ms & status::FS == 0 {
        return FpResult::Illegal; // as native execution would (§3.1.6.6)
    }
    // A dynamic rounding mode needs a valid frm even when the result cannot
    // depend on it (§11.2: reserved frm values are illegal with rm=111).
    if r.rounds && (insn.raw >> 12) & 7 == 7 {
        let frm = uc.reg_read(R::FRM).unwrap_or(0);
        if frm > 4 {
            return FpResult::Illegal;
        }
    }
    let out = compute(insn, &r, x);
    let mut dirty = false;
    match out.rd {
        Some((true, v)) => {
            let _ = uc.reg_write(R::F0 as i32 + i32::from(insn.rd & 31), v);
            dirty = true;
        }
        Some((false, v)) => regs::write_gpr(uc, insn.rd, v),
        None => {}
    }
    if out.flags != 0 {
        let old = uc.reg_read(R::FFLAGS).unwrap_or(0);
        let _ = uc.reg_write(R::FFLAGS, old | out.flags);
        dirty = true;
    }
    if dirty && ms & status::FS != status::FS {
        regs::write_csr(uc, 0x300, ms | status::FS);
        // The change is reported when this instruction retires (fstate.rs).
        let pc = uc.reg_read(R::PC).unwrap_or(0);
        uc.get_data_mut().ext.fs_by = Some(pc);
    }
    FpResult::Done
}

#[cfg(test)]
mod tests {
    use super::*;

    // Bit patterns from IEEE 754 binary32/binary64 (F spec §11.3, §12.2).
    const P1: u64 = 0x3f80_0000; // +1.0f
    const M1: u64 = 0xbf80_0000; // -1.0f
    const PZ: u64 = 0;
    const MZ: u64 = 0x8000_0000;
    const QNAN: u64 = 0x7fc0_0000;
    const SNAN: u64 = 0x7f80_0001;

    #[test]
    fn min_max_follow_minimum_number() {
        assert_eq!(min_max(P1, M1, false, false), (M1, false));
        assert_eq!(min_max(P1, M1, false, true), (P1, false));
        assert_eq!(min_max(PZ, MZ, false, false), (MZ, false));
        assert_eq!(min_max(MZ, PZ, false, false), (MZ, false));
        assert_eq!(min_max(PZ, MZ, false, true), (PZ, false));
        assert_eq!(min_max(MZ, PZ, false, true), (PZ, false));
        assert_eq!(min_max(QNAN, P1, false, false), (P1, false));
        assert_eq!(min_max(M1, QNAN, false, true), (M1, false));
        // sNaN: the other operand, and NV.
        assert_eq!(min_max(SNAN, P1, false, false), (P1, true));
        assert_eq!(min_max(SNAN, SNAN, false, true), (QNAN, true));
        assert_eq!(min_max(QNAN, 0x7fc0_1234, false, true), (QNAN, false));
        // Doubles.
        let (d1, dm1) = (0x3ff0_0000_0000_0000, 0xbff0_0000_0000_0000);
        assert_eq!(min_max(d1, dm1, true, false), (dm1, false));
        assert_eq!(min_max(0x7ff0_0000_0000_0001, d1, true, true), (d1, true));
        assert_eq!(min_max(1 << 63, 0, true, false), (1 << 63, false));
    }

    #[test]
    fn unboxed_singles_are_the_canonical_nan() {
        assert_eq!(unbox(0xffff_ffff_3f80_0000), (0x3f80_0000, true));
        assert_eq!(unbox(0x3ff0_0000_0000_0000), (CANON_S, false));
        assert_eq!(unbox(0xffff_fffe_3f80_0000), (CANON_S, false));
    }

    #[test]
    fn fclass_bits() {
        let s = |v| Bits { v, double: false };
        assert_eq!(fclass(s(QNAN)), 1 << 9);
        assert_eq!(fclass(s(SNAN)), 1 << 8);
        assert_eq!(fclass(s(MZ)), 1 << 3);
        assert_eq!(fclass(s(0x7f80_0000)), 1 << 7);
        assert_eq!(fclass(s(1)), 1 << 5);
        assert_eq!(fclass(s(M1)), 1 << 1);
    }
}
