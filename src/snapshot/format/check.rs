//! Manifest fields checked before the RAM file is read, each refused with
//! the field's name: the RAM's size and place, the vector unit's VLEN, and
//! the init's stored sources (each a plain path inside `init-src/`).
//! A field the emulator underneath would refuse later must be refused
//! here, in words about the snapshot.

use super::Manifest;

/// The largest RAM a snapshot may hold, 2047 MiB: the emulator copies
/// guest memory in one call of at most `INT_MAX` (2^31 - 1) bytes, so a
/// 2 GiB RAM cannot be loaded. `trapscope snapshot --mem` stops here too.
pub const RAM_MAX_MIB: u32 = 2047;
pub const RAM_MAX: u64 = (RAM_MAX_MIB as u64) << 20;

/// RISC-V physical addresses are at most 56 bits (priv spec §4.4, Sv39's
/// 44-bit PPN and 12-bit offset), so RAM must end at or below 2^56.
const PHYS_END: u64 = 1 << 56;

/// Refuses a manifest whose RAM or vector fields cannot be loaded.
pub(super) fn fields(m: &Manifest) -> Result<(), String> {
    let (base, size) = (m.ram.base.0, m.ram.size.0);
    if size == 0 || size % 4096 != 0 {
        return Err(format!(
            "ram.size {size:#x} is not a whole number of pages (4 KiB each)"
        ));
    }
    if size > RAM_MAX {
        return Err(format!(
            "ram.size {size:#x} is more than the {RAM_MAX_MIB} MiB ({RAM_MAX:#x} bytes) trapscope can load; take the snapshot again with --mem {RAM_MAX_MIB} or less"
        ));
    }
    if base % 4096 != 0 {
        return Err(format!("ram.base {base:#x} is not 4 KiB aligned"));
    }
    match base.checked_add(size) {
        Some(end) if end <= PHYS_END => {}
        _ => {
            return Err(format!(
                "ram.base {base:#x} + ram.size {size:#x} ends past the 56-bit physical address space (2^56)"
            ));
        }
    }
    for (i, s) in m.init.sources.iter().enumerate() {
        if super::stored_path(&s.stored).is_none() {
            return Err(format!(
                "init.sources[{i}].stored '{}' is not a path inside {}/ (relative, no '..', no hidden component)",
                s.stored,
                super::INIT_SRC_DIR
            ));
        }
    }
    if let Some(v) = &m.hart.vector {
        crate::cost::validate::vlen_rule(v.vlen)
            .map_err(|e| format!("hart.vector.vlen {}: {e}", v.vlen))?;
    }
    Ok(())
}
