//! Execution of decoded vector instructions on a [`VUnit`].
//!
//! Policies trapscope picks where V spec 1.0 leaves a choice:
//! - tail and masked-off elements are left undisturbed, which is allowed
//!   whatever vta/vma say (§3.4.3), so tails never change under the guest;
//! - every element loop starts at vstart (§3.7) and vstart is reset to 0
//!   after each instruction that completes; an illegal-instruction trap
//!   leaves it alone, a memory fault sets it to the faulting element (§17.1);
//! - `Effect::written` holds the registers that received at least one byte,
//!   so a short vl highlights only the registers it reached.

mod arith;
mod config;
mod mem;
mod vtype;

use super::decode::{VInsn, VOp};
use super::unit::{Effect, VHost, VTrap, VUnit};
use vtype::{Vtype, out_of_range};

/// VLMAX of a vtype value, `None` for one that sets vill (`Vtype::parse`).
pub(super) fn vlmax(vtype: u64, vlen: u32) -> Option<u64> {
    Vtype::parse(vtype, vlen).map(|t| t.vlmax(vlen))
}

impl VUnit {
    /// The current vtype, or the illegal-instruction exception that any
    /// instruction depending on vtype raises while vill is set (§3.4.4).
    fn valid_vtype(&self) -> Result<Vtype, VTrap> {
        Vtype::parse(self.vtype, self.vlen).ok_or(VTrap::Illegal("vtype.vill is set"))
    }

    /// Byte offset of element `i` of the group starting at `reg`: groups are
    /// consecutive registers and elements are packed little-endian (§4).
    /// `None` past the register file, which only a state no instruction
    /// could make reaches (`consistent` refuses it first).
    fn offset(&self, reg: u8, i: u64, bytes: usize) -> Option<usize> {
        let i = usize::try_from(i).ok()?;
        let o = usize::from(reg)
            .checked_mul(self.vlen as usize / 8)?
            .checked_add(i.checked_mul(bytes)?)?;
        (o.checked_add(bytes)? <= self.regs.len()).then_some(o)
    }

    /// The bytes of elements `start..end` of the group at `reg`.
    fn range(&self, reg: u8, start: u64, end: u64, bytes: usize) -> Result<(usize, usize), VTrap> {
        let lo = self.offset(reg, start, bytes).ok_or_else(out_of_range)?;
        let hi = self
            .offset(reg, end.saturating_sub(1), bytes)
            .ok_or_else(out_of_range)?
            + bytes;
        Ok((lo, hi.max(lo)))
    }

    fn elem(&self, reg: u8, i: u64, bytes: usize) -> Result<u64, VTrap> {
        let o = self.offset(reg, i, bytes).ok_or_else(out_of_range)?;
        let mut le = [0u8; 8];
        le[..bytes].copy_from_slice(&self.regs[o..o + bytes]);
        Ok(u64::from_le_bytes(le))
    }

    /// Stores the low `bytes` bytes of `v`.
    fn set_elem(&mut self, reg: u8, i: u64, bytes: usize, v: u64) -> Result<(), VTrap> {
        let o = self.offset(reg, i, bytes).ok_or_else(out_of_range)?;
        self.regs[o..o + bytes].copy_from_slice(&v.to_le_bytes()[..bytes]);
        Ok(())
    }

    /// Whether vl, vtype and vstart are a state the unit can be in: vl at
    /// most VLMAX (0 with vill set) and vstart below VLEN (§3.4, §3.7).
    /// Instructions keep it so; a state restored from outside (a snapshot,
    /// a checkpoint) that breaks it stops the run rather than reach past a
    /// register group.
    fn consistent(&self) -> Result<(), VTrap> {
        let vlmax = Vtype::parse(self.vtype, self.vlen).map_or(0, |t| t.vlmax(self.vlen));
        if self.vl > vlmax || self.vstart >= u64::from(self.vlen) {
            return Err(VTrap::Unsupported(format!(
                "the vector state is out of range: vl = {}, vstart = {} with VLMAX = {vlmax}, VLEN = {}",
                self.vl, self.vstart, self.vlen
            )));
        }
        Ok(())
    }

    /// The registers holding elements `start..end` of the group at `reg`.
    fn span(&self, reg: u8, start: u64, end: u64, bytes: usize) -> u32 {
        if start >= end {
            return 0;
        }
        let (vlenb, bytes) = (self.vlenb().max(1), bytes as u64);
        let (first, last) = (
            start.saturating_mul(bytes) / vlenb,
            (end.saturating_mul(bytes) - 1) / vlenb,
        );
        (first..=last)
            .take(32)
            .map(|k| u64::from(reg) + k)
            .filter(|r| *r < 32)
            .fold(0, |m, r| m | 1 << r)
    }
}

pub(super) fn execute(u: &mut VUnit, insn: &VInsn, host: &mut impl VHost) -> Result<Effect, VTrap> {
    u.consistent()?;
    let resumed = u.vstart != 0;
    let mut effect = match insn.op {
        VOp::Vsetvli { rd, rs1, vtypei } => {
            config::vsetvl(u, host, rd, config::Avl::Reg(rs1), u64::from(vtypei))
        }
        VOp::Vsetivli { rd, uimm, vtypei } => {
            config::vsetvl(u, host, rd, config::Avl::Imm(uimm), u64::from(vtypei))
        }
        VOp::Vsetvl { rd, rs1, rs2 } => {
            let vtype = host.x(rs2);
            config::vsetvl(u, host, rd, config::Avl::Reg(rs1), vtype)
        }
        VOp::Mv { vd, src } => arith::mv(u, host, vd, src)?,
        VOp::Alu { op, vd, vs2, src } => arith::alu(u, host, op, vd, vs2, src)?,
        VOp::Id { vd } => arith::id(u, vd)?,
        VOp::MvXS { rd, vs2 } => arith::mv_x_s(u, host, rd, vs2)?,
        VOp::MvSX { vd, rs1 } => arith::mv_s_x(u, host, vd, rs1)?,
        VOp::Load { eew, vd, rs1 } => mem::unit_stride(u, host, eew, vd, rs1, false)?,
        VOp::Store { eew, vs3, rs1 } => mem::unit_stride(u, host, eew, vs3, rs1, true)?,
        VOp::LoadWhole {
            nregs,
            eew,
            vd,
            rs1,
        } => mem::whole(u, host, nregs, eew, vd, rs1, false)?,
        VOp::StoreWhole { nregs, vs3, rs1 } => mem::whole(u, host, nregs, 8, vs3, rs1, true)?,
    };
    // §3.7: all vector instructions, vset{i}vl{i} included, end by resetting
    // vstart; after a resumed instruction that write alone changes state.
    u.vstart = 0;
    effect.dirties |= resumed;
    Ok(effect)
}
