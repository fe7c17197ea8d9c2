//! What a take is asked for (`Config`, the guest) and the machine it boots:
//! RAM's base and size, the kernel's command line, QEMU's reproducible
//! clock, the CLINT's registers.

use std::path::PathBuf;
use std::time::Duration;

/// The base and size of QEMU virt's RAM as trapscope boots it.
pub const RAM_BASE: u64 = 0x8000_0000;

pub const DEFAULT_MEM_MIB: u32 = 128;

/// The kernel command line: the console on the 16550, Sv39 (trapscope's MMU),
/// and trapscope's init.
pub const LINUX_APPEND: &str = "console=ttyS0 earlycon=sbi no4lvl rdinit=/init";

/// QEMU's options that make a boot repeat bit for bit
/// (docs/decisions.md D14): time counted in instructions (1 ns each, no sleeping or
/// aligning to the host's clock), the seed of the random numbers QEMU
/// gives the guest (the device tree's `rng-seed`), and the RTC on that
/// same counted clock. Recorded as `qemu.reproducible`; changing them
/// makes earlier snapshots unverifiable, so a change needs a new field.
pub const REPRODUCIBLE: [&str; 6] = [
    "-icount",
    "shift=0,sleep=off,align=off",
    "-seed",
    "1",
    "-rtc",
    "base=2000-01-01T00:00:00,clock=vm",
];

/// CLINT registers (QEMU virt): mtimecmp of hart 0, mtime.
pub(super) const MTIMECMP: u64 = 0x0200_4000;

pub(super) const MTIME: u64 = 0x0200_bff8;

/// What to boot.
#[derive(Clone, Debug)]
pub enum Guest {
    Linux {
        image: PathBuf,
        vmlinux: PathBuf,
        /// The init program: one of assets/init/, or the user's own.
        init: PathBuf,
        /// The init keeps its count of finished iterations in x9, as
        /// trapscope's do, and the stop is checked against it.
        counted: bool,
    },
    /// A bare-metal ELF (M-mode entry, `-bios none`).
    Elf(PathBuf),
}

#[derive(Clone, Debug)]
pub struct Config {
    pub guest: Guest,
    /// Stop before the `at`-th execution of the ecall.
    pub at: u64,
    /// The symbols of the loop's ecall and top in the init (or the ELF).
    pub ecall_symbol: String,
    pub loop_symbol: String,
    /// V at this VLEN (None: no V).
    pub vlen: Option<u32>,
    pub mem_mib: u32,
    /// Extra kernel command-line words.
    pub append: String,
    /// How long the guest may take to reach the first stop.
    pub boot_timeout: Duration,
    /// The tick init's stop (`tick.rs`): count the timer interrupts taken
    /// at the marker (a spin) rather than its executions, and keep the
    /// interrupt enables and the armed timer.
    pub ticks: bool,
    /// QEMU on the counted clock (`REPRODUCIBLE`), recorded as
    /// `qemu.reproducible`. Off only where a test needs QEMU's own clock
    /// (a single step made to take a timer interrupt hangs QEMU 7.2's
    /// gdbstub under -icount).
    pub reproducible: bool,
}

/// The kernel command line: trapscope's words, then `--append`'s; empty
/// for a bare ELF.
pub(crate) fn kernel_append(cfg: &Config) -> String {
    match (&cfg.guest, cfg.append.trim()) {
        (Guest::Elf(_), _) => String::new(),
        (Guest::Linux { .. }, "") => LINUX_APPEND.to_string(),
        (Guest::Linux { .. }, more) => format!("{LINUX_APPEND} {more}"),
    }
}
