//! A CLINT-style core-local interruptor for one hart (the layout of SiFive's
//! CLINT that QEMU virt uses): `msip` at +0x0 (bit 0 raises MSIP),
//! `mtimecmp` at +0x4000 and `mtime` at +0xbff8, 64 bits each (priv spec
//! §3.2.1: MTIP is pending while mtime >= mtimecmp).
//!
//! `mtime` is not kept here: it is the model's clock, passed in by the
//! machine on every access, so time is deterministic. Writes to it are
//! ignored (it cannot be set back).

pub const MSIP: u64 = 0x0;
pub const MTIMECMP: u64 = 0x4000;
pub const MTIME: u64 = 0xbff8;

#[derive(Clone, Debug)]
pub struct Clint {
    pub msip: u32,
    /// Resets to the far future (the spec leaves it unset; firmware writes
    /// it before enabling MTIE), so no timer is pending at reset.
    pub mtimecmp: u64,
}

impl Default for Clint {
    fn default() -> Self {
        Clint {
            msip: 0,
            mtimecmp: u64::MAX,
        }
    }
}

/// Replaces `size` bytes at byte `at` of `old` with the low bytes of `v`.
pub(crate) fn merge(old: u64, at: u64, size: usize, v: u64) -> u64 {
    let bits = (size as u32 * 8).min(64);
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let sh = (at * 8) as u32;
    (old & !(mask << sh)) | ((v & mask) << sh)
}

impl Clint {
    /// Whether `[off, off+size)` lies inside one register.
    fn within(off: u64, size: usize, reg: u64, len: u64) -> bool {
        off >= reg && off + size as u64 <= reg + len
    }

    pub fn read(&self, off: u64, size: usize, mtime: u64) -> u64 {
        let part = |v: u64, reg: u64| {
            let sh = (off - reg) * 8;
            let v = v >> sh;
            if size >= 8 {
                v
            } else {
                v & ((1u64 << (size * 8)) - 1)
            }
        };
        if Self::within(off, size, MSIP, 4) {
            part(u64::from(self.msip & 1), MSIP)
        } else if Self::within(off, size, MTIMECMP, 8) {
            part(self.mtimecmp, MTIMECMP)
        } else if Self::within(off, size, MTIME, 8) {
            part(mtime, MTIME)
        } else {
            0
        }
    }

    /// Returns whether the write changed an interrupt input.
    pub fn write(&mut self, off: u64, size: usize, v: u64) -> bool {
        if Self::within(off, size, MSIP, 4) {
            let old = self.msip;
            self.msip = (merge(u64::from(old), off - MSIP, size, v) & 1) as u32;
            old != self.msip
        } else if Self::within(off, size, MTIMECMP, 8) {
            let old = self.mtimecmp;
            self.mtimecmp = merge(old, off - MTIMECMP, size, v);
            old != self.mtimecmp
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mtime_is_the_clock_passed_in_and_read_only() {
        let mut c = Clint::default();
        assert_eq!(c.read(MTIME, 8, 1234), 1234);
        assert_eq!(c.read(MTIME + 4, 4, 0x1_0000_0002), 1, "upper half");
        assert!(!c.write(MTIME, 8, 5));
        assert_eq!(c.read(MTIME, 8, 7), 7);
    }

    #[test]
    fn mtimecmp_in_halves_and_whole() {
        let mut c = Clint::default();
        assert_eq!(c.read(MTIMECMP, 8, 0), u64::MAX);
        assert!(c.write(MTIMECMP, 8, 0x1234));
        assert_eq!(c.mtimecmp, 0x1234);
        // RV32 firmware writes the low word, then the high one.
        c.write(MTIMECMP, 4, 0xaaaa_bbbb);
        c.write(MTIMECMP + 4, 4, 0x1);
        assert_eq!(c.mtimecmp, 0x1_aaaa_bbbb);
        assert_eq!(c.read(MTIMECMP + 4, 4, 0), 1);
    }

    #[test]
    fn msip_keeps_bit_zero_only() {
        let mut c = Clint::default();
        assert!(c.write(MSIP, 4, 0xffff_ffff));
        assert_eq!(c.read(MSIP, 4, 0), 1);
        assert!(!c.write(MSIP, 4, 3), "still 1: no change");
        assert!(c.write(MSIP, 4, 0));
        assert_eq!(c.msip, 0);
        assert_eq!(c.read(0x100, 4, 0), 0, "reserved space reads zero");
    }
}
