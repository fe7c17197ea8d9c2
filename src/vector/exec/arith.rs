//! Element-wise integer operations and moves: vadd/vsub (§11.1), vand/vor/
//! vxor (§11.5), vmv.v.* (§11.16), vid.v (§15.9), vmv.x.s / vmv.s.x (§16.1).

use super::vtype::{Vtype, check_group};
use crate::vector::decode::{AluOp, Operand};
use crate::vector::unit::{Effect, VClass, VHost, VTrap, VUnit};

/// The scalar operand of a `.vx`/`.vi` form: x[rs1] or the sign-extended
/// simm5; storing the result keeps its low SEW bits (§5.1, §10.1).
fn scalar(host: &impl VHost, src: Operand) -> u64 {
    match src {
        Operand::X(r) => host.x(r),
        Operand::I(i) => i64::from(i) as u64,
        Operand::V(_) => 0,
    }
}

/// Checks the source and destination groups against LMUL.
fn check(vt: Vtype, vd: u8, vs2: Option<u8>, src: Operand) -> Result<(), VTrap> {
    check_group(vd, vt.regs())?;
    if let Some(vs2) = vs2 {
        check_group(vs2, vt.regs())?;
    }
    if let Operand::V(vs1) = src {
        check_group(vs1, vt.regs())?;
    }
    Ok(())
}

/// Writes `f(unit, i)` to the body elements vstart..vl of `vd`; the tail
/// stays as it was. Only the low SEW bits are stored, which is the modulo
/// 2^SEW wrap of §11.1.
fn write_body(
    u: &mut VUnit,
    vt: Vtype,
    vd: u8,
    f: impl Fn(&VUnit, u64) -> Result<u64, VTrap>,
) -> Result<Effect, VTrap> {
    let bytes = vt.bytes();
    for i in u.vstart..u.vl {
        let v = f(u, i)?;
        u.set_elem(vd, i, bytes, v)?;
    }
    Ok(Effect {
        dirties: true,
        written: u.span(vd, u.vstart, u.vl, bytes),
        class: VClass::Arith {
            lmul_x8: vt.lmul_x8,
        },
    })
}

pub(super) fn alu(
    u: &mut VUnit,
    host: &impl VHost,
    op: AluOp,
    vd: u8,
    vs2: u8,
    src: Operand,
) -> Result<Effect, VTrap> {
    let vt = u.valid_vtype()?;
    check(vt, vd, Some(vs2), src)?;
    let (bytes, x) = (vt.bytes(), scalar(host, src));
    write_body(u, vt, vd, |u, i| {
        let a = u.elem(vs2, i, bytes)?;
        let b = match src {
            Operand::V(vs1) => u.elem(vs1, i, bytes)?,
            _ => x,
        };
        Ok(match op {
            AluOp::Add => a.wrapping_add(b),
            AluOp::Sub => a.wrapping_sub(b),
            AluOp::And => a & b,
            AluOp::Or => a | b,
            AluOp::Xor => a ^ b,
        })
    })
}

pub(super) fn mv(u: &mut VUnit, host: &impl VHost, vd: u8, src: Operand) -> Result<Effect, VTrap> {
    let vt = u.valid_vtype()?;
    check(vt, vd, None, src)?;
    let (bytes, x) = (vt.bytes(), scalar(host, src));
    write_body(u, vt, vd, |u, i| match src {
        Operand::V(vs1) => u.elem(vs1, i, bytes),
        _ => Ok(x),
    })
}

pub(super) fn id(u: &mut VUnit, vd: u8) -> Result<Effect, VTrap> {
    let vt = u.valid_vtype()?;
    check_group(vd, vt.regs())?;
    write_body(u, vt, vd, |_, i| Ok(i))
}

/// vmv.x.s: element 0 sign-extended to XLEN, whatever vstart and vl are.
/// It ignores LMUL, so vs2 need not be group-aligned (§16.1).
pub(super) fn mv_x_s(
    u: &mut VUnit,
    host: &mut impl VHost,
    rd: u8,
    vs2: u8,
) -> Result<Effect, VTrap> {
    let vt = u.valid_vtype()?;
    check_group(vs2, 1)?; // a range check only: any register will do
    let shift = 64 - vt.sew;
    let v = ((u.elem(vs2, 0, vt.bytes())? << shift) as i64 >> shift) as u64;
    if rd != 0 {
        host.set_x(rd, v);
    }
    Ok(Effect {
        dirties: false,
        written: 0,
        class: VClass::Scalar,
    })
}

/// vmv.s.x: the low SEW bits of x[rs1] into element 0, only when vstart = 0
/// and vl > 0: vstart ≥ vl means no operation (§16.1), and with
/// 0 < vstart < vl element 0 is prestart, left undisturbed (§3.7).
pub(super) fn mv_s_x(u: &mut VUnit, host: &impl VHost, vd: u8, rs1: u8) -> Result<Effect, VTrap> {
    let vt = u.valid_vtype()?;
    check_group(vd, 1)?;
    let mut written = 0;
    if u.vstart == 0 && u.vl > 0 {
        u.set_elem(vd, 0, vt.bytes(), host.x(rs1))?;
        written = 1 << vd;
    }
    Ok(Effect {
        dirties: true,
        written,
        class: VClass::Scalar,
    })
}
