//! The vector state a snapshot's manifest claims, checked before it reaches
//! the V unit: a `vl` past VLMAX or a `vtype` the unit would never hold
//! would make the unit index past a register group (or past v31), so such a
//! manifest is refused with one line naming the field.
//!
//! The rules (V spec 1.0): vtype's bits 8..=XLEN-2 are reserved and zero,
//! and with vill set the others are zero too and vl is 0 (§3.4.4); vl is
//! at most VLMAX = LMUL·VLEN/SEW (§3.4.2, §6); vstart holds element
//! indices up to the largest VLMAX less one, VLEN − 1, since whole-register
//! loads and stores (§7.9) can leave it anywhere below that whatever vtype
//! says (§3.7).

use super::format::VectorDump;

const VILL: u64 = 1 << 63;
/// vtype's reserved bits, 8 to XLEN-2.
const RESERVED: u64 = !VILL & !0xff;

/// Checks `v`; the error names the field (`hart.vector.vl`, ...).
pub fn check(v: &VectorDump) -> Result<(), String> {
    let vlen = v.vlen;
    if !(64..=65536).contains(&vlen) || !vlen.is_power_of_two() {
        // Not a VLEN at all: refused where the VLEN is checked.
        return Ok(());
    }
    let (vl, vtype, vstart) = (v.vl.0, v.vtype.0, v.vstart.0);
    if vtype & RESERVED != 0 {
        return Err(format!(
            "hart.vector.vtype = {vtype:#x} sets reserved bits (8 to 62 must be zero, V spec §3.4)"
        ));
    }
    if vtype & VILL != 0 {
        if vtype != VILL {
            return Err(format!(
                "hart.vector.vtype = {vtype:#x} has vill set, so its other bits must be zero (V spec §3.4.4)"
            ));
        }
        if vl != 0 {
            return Err(format!(
                "hart.vector.vl = {vl} while vtype.vill is set: vl must be 0 (V spec §3.4.4)"
            ));
        }
    } else {
        let Some(vlmax) = crate::vector::vlmax(vtype, vlen) else {
            return Err(format!(
                "hart.vector.vtype = {vtype:#x} is a reserved or unsupported SEW/LMUL, yet vill is clear (a V unit sets vill for it, V spec §3.4.4)"
            ));
        };
        if vl > vlmax {
            return Err(format!(
                "hart.vector.vl = {vl} is more than VLMAX = {vlmax} for vtype {vtype:#x} at VLEN {vlen} (V spec §3.4.2)"
            ));
        }
    }
    if vstart >= u64::from(vlen) {
        return Err(format!(
            "hart.vector.vstart = {vstart} is not below VLEN = {vlen}, past every element index (V spec §3.7)"
        ));
    }
    Ok(())
}
