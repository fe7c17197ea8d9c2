//! Unit-stride (V spec 1.0 §7.4) and whole-register (§7.9) loads and stores.

use super::vtype::{check_group, out_of_range};
use crate::vector::unit::{Effect, VClass, VHost, VTrap, VUnit};

fn check_eew(eew: u32) -> Result<usize, VTrap> {
    match eew {
        8 | 16 | 32 | 64 => Ok(eew as usize / 8),
        _ => Err(VTrap::Illegal("reserved element width")),
    }
}

/// vle<eew>.v / vse<eew>.v: vl elements of EEW bits. The register group has
/// EMUL = (EEW/SEW)·LMUL, which must lie in 1/8..=8 (§7.3).
pub(super) fn unit_stride(
    u: &mut VUnit,
    host: &mut impl VHost,
    eew: u32,
    vreg: u8,
    rs1: u8,
    store: bool,
) -> Result<Effect, VTrap> {
    let bytes = check_eew(eew)?;
    let vt = u.valid_vtype()?;
    let emul_x64 = vt.lmul_x8 * 8 * eew / vt.sew;
    if !(8..=512).contains(&emul_x64) {
        return Err(VTrap::Illegal("EMUL out of range for the load/store EEW"));
    }
    check_group(vreg, (emul_x64 / 64).max(1))?;
    let (start, end) = (u.vstart, u.vl);
    let base = host.x(rs1);
    let written = transfer(u, host, vreg, base, start..end, bytes, store)?;
    Ok(Effect {
        dirties: !store,
        written,
        class: VClass::UnitStride {
            store,
            eew,
            vl: end.saturating_sub(start),
        },
    })
}

/// vl<n>re<eew>.v / vs<n>r.v: n registers as evl = n·VLEN/EEW elements,
/// regardless of vtype and vl, so they work with vill set (§7.9).
pub(super) fn whole(
    u: &mut VUnit,
    host: &mut impl VHost,
    nregs: u32,
    eew: u32,
    vreg: u8,
    rs1: u8,
    store: bool,
) -> Result<Effect, VTrap> {
    let bytes = check_eew(eew)?;
    if ![1, 2, 4, 8].contains(&nregs) {
        return Err(VTrap::Illegal("reserved whole-register count"));
    }
    check_group(vreg, nregs)?;
    let evl = u64::from(nregs) * u64::from(u.vlen) / u64::from(eew);
    let base = host.x(rs1);
    let written = transfer(u, host, vreg, base, u.vstart..evl, bytes, store)?;
    Ok(Effect {
        dirties: !store,
        written,
        class: VClass::WholeReg { store, nregs },
    })
}

/// Moves elements `range` (of `bytes` each) between the group at `reg` and
/// memory at `base`, element i at base + i·bytes. One host access does the
/// usual case; after a fault the elements are redone one by one so vstart can
/// name the faulting element, as §17.1 requires. Returns the registers written.
fn transfer(
    u: &mut VUnit,
    host: &mut impl VHost,
    reg: u8,
    base: u64,
    range: std::ops::Range<u64>,
    bytes: usize,
    store: bool,
) -> Result<u32, VTrap> {
    if range.is_empty() {
        return Ok(0);
    }
    let (lo, hi) = u.range(reg, range.start, range.end, bytes)?;
    let addr = |i: u64| base.wrapping_add(i.wrapping_mul(bytes as u64));
    let whole = if store {
        host.store(addr(range.start), &u.regs[lo..hi]).is_ok()
    } else {
        let mut buf = vec![0; hi - lo];
        let ok = host.load(addr(range.start), &mut buf).is_ok();
        if ok {
            u.regs[lo..hi].copy_from_slice(&buf);
        }
        ok
    };
    if !whole {
        for i in range.clone() {
            let o = u.offset(reg, i, bytes).ok_or_else(out_of_range)?;
            let done = if store {
                host.store(addr(i), &u.regs[o..o + bytes])
            } else {
                host.load(addr(i), &mut u.regs[o..o + bytes])
            };
            if let Err(addr) = done {
                u.vstart = i;
                return Err(VTrap::Memory { addr, store });
            }
        }
    }
    Ok(if store {
        0
    } else {
        u.span(reg, range.start, range.end, bytes)
    })
}
