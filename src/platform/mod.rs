//! The devices a guest reaches through MMIO, at QEMU virt's addresses
//! (docs/decisions.md D10): a CLINT-style timer and software interrupt, a
//! 16550-style UART whose output is captured, the SiFive test device that
//! powers off, and a minimal PLIC. The devices only hold state and raise
//! interrupt lines; `machine` maps them into unicorn and decides delivery.
//! Nothing here knows unicorn.

pub mod clint;
pub mod plic;
pub mod test_dev;
pub mod uart;

pub use clint::Clint;
pub use plic::Plic;
pub use test_dev::{Finish, TestDev};
pub use uart::Uart;

/// One device's window in the physical address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub name: &'static str,
    pub base: u64,
    pub size: u64,
}

impl Region {
    pub fn end(&self) -> u64 {
        self.base + self.size
    }
    /// Whether `[start, end)` touches this region.
    pub fn overlaps(&self, start: u64, end: u64) -> bool {
        start < self.end() && self.base < end
    }
}

/// The SiFive test / poweroff device ("sifive,test0").
pub const TEST: Region = Region {
    name: "test device",
    base: 0x0010_0000,
    size: 0x1000,
};
/// The CLINT: msip at +0, mtimecmp at +0x4000, mtime at +0xbff8.
pub const CLINT: Region = Region {
    name: "CLINT",
    base: 0x0200_0000,
    size: 0x1_0000,
};
/// The PLIC: up to 0x400_0000 bytes, as its memory map allows.
pub const PLIC: Region = Region {
    name: "PLIC",
    base: 0x0c00_0000,
    size: 0x400_0000,
};
/// The UART (ns16550a, registers one byte apart).
pub const UART: Region = Region {
    name: "UART",
    base: 0x1000_0000,
    size: 0x1000,
};

pub const REGIONS: [Region; 4] = [TEST, CLINT, PLIC, UART];

/// The device region `[start, end)` overlaps, if any (a guest segment there
/// is refused at load).
pub fn overlapping(start: u64, end: u64) -> Option<Region> {
    REGIONS.into_iter().find(|r| r.overlaps(start, end))
}

/// mip bits the devices drive (priv spec §3.1.9).
pub mod lines {
    pub const MSIP: u64 = 1 << 3;
    pub const MTIP: u64 = 1 << 7;
    pub const SEIP: u64 = 1 << 9;
    pub const MEIP: u64 = 1 << 11;
}

/// All the devices of one machine.
#[derive(Clone, Debug, Default)]
pub struct Platform {
    pub clint: Clint,
    pub uart: Uart,
    pub test: TestDev,
    pub plic: Plic,
}

impl Platform {
    /// The interrupt lines at `mtime` (bits of mip).
    pub fn lines(&self, mtime: u64) -> u64 {
        let mut l = 0;
        if self.clint.msip & 1 != 0 {
            l |= lines::MSIP;
        }
        if mtime >= self.clint.mtimecmp {
            l |= lines::MTIP;
        }
        if self.plic.asserted(plic::CTX_M) {
            l |= lines::MEIP;
        }
        if self.plic.asserted(plic::CTX_S) {
            l |= lines::SEIP;
        }
        l
    }
}

/// Reads `size` bytes at `off` from a little-endian register file of 32-bit
/// words (`word(i)` gives word `i`), as the CLINT and PLIC are laid out.
pub(crate) fn read_words(off: u64, size: usize, word: impl Fn(u64) -> u32) -> u64 {
    let mut v = 0u64;
    for b in 0..size as u64 {
        let a = off + b;
        let byte = (word(a / 4) >> ((a % 4) * 8)) & 0xff;
        v |= u64::from(byte) << (8 * b);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_qemu_virt_and_disjoint() {
        assert_eq!(CLINT.base, 0x200_0000);
        assert_eq!(UART.base, 0x1000_0000);
        assert_eq!(TEST.base, 0x10_0000);
        assert_eq!(PLIC.base, 0xc00_0000);
        for a in REGIONS {
            for b in REGIONS {
                if a != b {
                    assert!(!a.overlaps(b.base, b.end()), "{} / {}", a.name, b.name);
                }
            }
        }
        assert_eq!(overlapping(0x8000_0000, 0x8000_1000), None);
        assert_eq!(overlapping(0x1000_0ff8, 0x1000_1008), Some(UART));
        assert_eq!(overlapping(0x1000_1000, 0x1000_2000), None);
    }

    #[test]
    fn lines_follow_the_devices() {
        let mut p = Platform::default();
        assert_eq!(p.lines(0), 0, "mtimecmp resets to the far future");
        p.clint.mtimecmp = 100;
        assert_eq!(p.lines(99), 0);
        assert_eq!(p.lines(100), lines::MTIP, "mtime >= mtimecmp");
        p.clint.msip = 1;
        assert_eq!(p.lines(0), lines::MSIP);
    }
}
