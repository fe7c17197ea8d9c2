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

use super::format::{VectorDump, VectorStateError};

const VILL: u64 = 1 << 63;
/// vtype's reserved bits, 8 to XLEN-2.
const RESERVED: u64 = !VILL & !0xff;

/// Checks `v`; the error names the field (`hart.vector.vl`, ...).
pub fn check(v: &VectorDump) -> Result<(), VectorStateError> {
    let vlen = v.vlen;
    if !(64..=65536).contains(&vlen) || !vlen.is_power_of_two() {
        // Not a VLEN at all: refused where the VLEN is checked.
        return Ok(());
    }
    let (vl, vtype, vstart) = (v.vl.0, v.vtype.0, v.vstart.0);
    if vtype & RESERVED != 0 {
        return Err(VectorStateError::Reserved { vtype });
    }
    if vtype & VILL != 0 {
        if vtype != VILL {
            return Err(VectorStateError::VillOthers { vtype });
        }
        if vl != 0 {
            return Err(VectorStateError::VillVl { vl });
        }
    } else {
        let Some(vlmax) = crate::vector::vlmax(vtype, vlen) else {
            return Err(VectorStateError::Unsupported { vtype });
        };
        if vl > vlmax {
            return Err(VectorStateError::Vl {
                vl,
                vlmax,
                vtype,
                vlen,
            });
        }
    }
    if vstart >= u64::from(vlen) {
        return Err(VectorStateError::Vstart { vstart, vlen });
    }
    Ok(())
}
