//! Manifest fields checked before the RAM file is read, each refused with
//! the field's name: the RAM's size and place, the vector unit's VLEN, and
//! the init's stored sources (each a plain path inside `init-src/`).
//! A field the emulator underneath would refuse later must be refused
//! here, in words about the snapshot.

use super::constants::RAM_MAX;
use super::{FieldError, Manifest};

/// RISC-V physical addresses are at most 56 bits (priv spec §4.4, Sv39's
/// 44-bit PPN and 12-bit offset), so RAM must end at or below 2^56.
const PHYS_END: u64 = 1 << 56;

/// Refuses a manifest whose RAM or vector fields cannot be loaded.
pub(super) fn fields(m: &Manifest) -> Result<(), FieldError> {
    let (base, size) = (m.ram.base.0, m.ram.size.0);
    if size == 0 || size % 4096 != 0 {
        return Err(FieldError::RamPages { size });
    }
    if size > RAM_MAX {
        return Err(FieldError::RamTooLarge { size });
    }
    if base % 4096 != 0 {
        return Err(FieldError::RamBase { base });
    }
    match base.checked_add(size) {
        Some(end) if end <= PHYS_END => {}
        _ => {
            return Err(FieldError::RamEnd { base, size });
        }
    }
    for (index, s) in m.init.sources.iter().enumerate() {
        if super::stored_path(&s.stored).is_none() {
            return Err(FieldError::StoredPath {
                index,
                stored: s.stored.clone(),
            });
        }
    }
    if let Some(v) = &m.hart.vector {
        crate::cost::validate::vlen_rule(v.vlen).map_err(FieldError::Vlen)?;
    }
    Ok(())
}
