//! vtype as the unit reads it (`Vtype`, `VILL`) and the checks on register
//! numbers every kind of instruction makes (`check_group`, `out_of_range`).
//! A leaf of its own: the execution (`exec.rs`) and each kind's file below
//! it (`arith.rs`, `config.rs`, `mem.rs`) all use them.

use crate::vector::unit::VTrap;

/// vtype.vill, bit XLEN-1 (§3.4.4).
pub(super) const VILL: u64 = 1 << 63;

/// The widest element the unit supports: ELEN = 64, as RV64 "V" requires
/// (§18.3).
const ELEN: u32 = 64;

/// A vtype the unit supports: SEW in bits and LMUL in eighths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Vtype {
    pub(super) sew: u32,
    pub(super) lmul_x8: u32,
}

impl Vtype {
    /// Parses a vtype value; `None` for anything that must set vill (§3.4.4):
    /// the vill bit itself, non-zero reserved bits 8..=62, vsew beyond e64,
    /// the reserved vlmul 100, and a fractional LMUL too small for the SEW
    /// (SEW > LMUL·ELEN, which §3.4.2 lets an implementation refuse).
    pub(super) fn parse(vtype: u64, vlen: u32) -> Option<Vtype> {
        if vtype >> 8 != 0 {
            return None;
        }
        let vsew = (vtype >> 3) & 7;
        let sew = if vsew <= 3 { 8 << vsew } else { return None };
        let lmul_x8 = match vtype & 7 {
            0 => 8,
            1 => 16,
            2 => 32,
            3 => 64,
            5 => 1,
            6 => 2,
            7 => 4,
            _ => return None,
        };
        let t = Vtype { sew, lmul_x8 };
        (sew * 8 <= ELEN * lmul_x8 && t.vlmax(vlen) > 0).then_some(t)
    }

    /// VLMAX = LMUL·VLEN/SEW (§3.4.2).
    pub(super) fn vlmax(self, vlen: u32) -> u64 {
        u64::from(self.lmul_x8) * u64::from(vlen) / (8 * u64::from(self.sew))
    }

    pub(super) fn bytes(self) -> usize {
        self.sew as usize / 8
    }

    /// Registers in a group: LMUL, or 1 for a fractional LMUL.
    pub(super) fn regs(self) -> u32 {
        (self.lmul_x8 / 8).max(1)
    }
}

/// A group of `nregs` registers must start at a multiple of `nregs`; other
/// register numbers are reserved (§3.4.2, §7.9), and trapscope traps on them.
pub(super) fn check_group(reg: u8, nregs: u32) -> Result<(), VTrap> {
    if u32::from(reg) % nregs != 0 || u32::from(reg) + nregs > 32 {
        return Err(VTrap::Illegal("vector register group misaligned for LMUL"));
    }
    Ok(())
}

/// An element index past the register file (see `VUnit::consistent`).
pub(super) fn out_of_range() -> VTrap {
    VTrap::Unsupported("a vector element index past the register file".into())
}
