//! `trapscope snapshot`: boot a guest in qemu-system-riscv64, stop it at the
//! N-th execution of its loop's marker (an `ecall`, or any instruction run
//! once per iteration) through the gdbstub, and write the
//! machine's state (format.rs).
//!
//! The guest is a Linux kernel (`Image`, with its `vmlinux` for the build id
//! and symbols) running trapscope's own `/init` (assets/init/), or a
//! bare-metal ELF booted with `-bios none` (trapscope's minikernel: CI tests
//! the path on it). The live session (`Booted`) is public so that tests can
//! let QEMU run on past the snapshot as the oracle.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::gdb::{Gdb, RegMap, RiscvRegs};
use crate::qemu::{self, Launch, Qemu};
use crate::snapshot::format;

mod dump;
mod error;
mod guest;
mod out;
mod run;
mod step;
mod tick;
use dump::le_u64;
pub use error::{GuestError, OutError, StopError, TakeError};
use guest::{GuestFacts, guest_facts};
pub use tick::S_TIMER;

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
pub use crate::snapshot::format::QEMU_VIRT_TIMEBASE_HZ;
/// CLINT registers (QEMU virt): mtimecmp of hart 0, mtime.
const MTIMECMP: u64 = 0x0200_4000;
const MTIME: u64 = 0x0200_bff8;

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

/// A guest running in QEMU, stopped under the gdbstub.
pub struct Booted {
    pub qemu: Qemu,
    pub gdb: Gdb<std::os::unix::net::UnixStream>,
    map: RegMap,
    regs: RiscvRegs,
    /// The ecall's address and how many times it has been reached.
    pub ecall: u64,
    pub hits: u64,
    /// Steps over the ecall that took an interrupt instead of its trap
    /// (not counted in `hits`).
    pub interrupted_steps: u64,
    /// The kernel's handler where a tick snapshot counts its stops.
    pub tick_handler: Option<u64>,
    pub cpu: String,
    pub isa: String,
    pub version: qemu::Version,
    /// Declared after `qemu`, so removed once QEMU is gone.
    work: crate::output::ScratchDir,
    facts: GuestFacts,
    cfg: Config,
}

impl Drop for Booted {
    fn drop(&mut self) {
        // QEMU is killed, then the scratch directory removed, as the
        // fields drop.
        self.gdb.kill();
    }
}

/// Connects to QEMU's gdbstub once it listens, ending early (one line)
/// when QEMU exits first or on Ctrl-C, rather than retrying a socket that
/// will never answer (QEMU killed by a terminal's Ctrl-C leaves the file).
fn connect_gdb(
    qemu: &mut Qemu,
    socket: &Path,
    limit: Duration,
) -> Result<Gdb<std::os::unix::net::UnixStream>, TakeError> {
    let start = Instant::now();
    loop {
        if crate::machine::sigint::requested() {
            return Err(TakeError::Interrupted);
        }
        if let Some(why) = qemu.exited() {
            return Err(TakeError::QemuEnded { why });
        }
        match std::os::unix::net::UnixStream::connect(socket) {
            Ok(s) => {
                return Gdb::from_unix(s, limit).map_err(|err| TakeError::GdbAt {
                    socket: socket.to_path_buf(),
                    err,
                });
            }
            Err(err) if start.elapsed() >= limit => {
                return Err(TakeError::NoAnswer {
                    socket: socket.to_path_buf(),
                    secs: limit.as_secs(),
                    err,
                });
            }
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// The scratch directories' prefix: `TMPDIR/trapscope-snapshot-PID-RANDOM`
/// holds the socket, the initramfs, the console and the RAM dump.
pub const SCRATCH: &str = "trapscope-snapshot";

impl Booted {
    /// Starts QEMU paused, checks the CPU it gives the guest, and connects.
    pub fn start(cfg: &Config, progress: &mut dyn FnMut(&str)) -> Result<Booted, TakeError> {
        let facts = guest_facts(cfg)?;
        // A snapshot's own stored init (`verify` boots it again) has its
        // sources in that snapshot's init-src/, not beside it: no news.
        let stored_copy = match &cfg.guest {
            Guest::Linux { init, .. } => {
                init.file_name() == Some(std::ffi::OsStr::new(format::INIT_FILE))
                    && init.with_file_name(format::MANIFEST).is_file()
            }
            Guest::Elf(_) => false,
        };
        if let Some(line) = facts.sources.summary().filter(|_| !stored_copy) {
            progress(&line);
        }
        guest::check_tmpdir()?;
        let bin = qemu::find_binary()?;
        let version = qemu::version(&bin)?;
        let cpu = qemu::cpu_arg(&version, cfg.vlen)?;
        let isa = qemu::guest_isa(&bin, &cpu)?;
        let lacking = qemu::unsupported_extensions(&isa, cfg.vlen.is_some());
        if !lacking.is_empty() {
            return Err(TakeError::Extensions {
                version,
                lacking,
                isa: isa.isa,
                cpu,
            });
        }
        // Made fresh, mode 0700, locked while it is used; removed again
        // if the boot fails below (QEMU, declared later, is dropped first),
        // and by a Booted when it is dropped.
        let work = crate::output::scratch_dir(SCRATCH)?;
        let socket = work.join("gdb.sock");
        let console = work.join(format::CONSOLE_FILE);
        let (kernel, initrd, append, bios) = match &cfg.guest {
            Guest::Linux { image, .. } => {
                let rd = work.join("initramfs.cpio");
                crate::output::create_new(&rd, &super::cpio::initramfs(facts.init_elf.clone()))
                    .map_err(|e| match e {
                        Some(e) => TakeError::Write(e),
                        None => TakeError::Exists { path: rd.clone() },
                    })?;
                (image.clone(), Some(rd), kernel_append(cfg), None)
            }
            Guest::Elf(p) => (p.clone(), None, String::new(), Some(PathBuf::from("none"))),
        };
        let launch = Launch {
            bin,
            kernel,
            initrd,
            append,
            cpu: cpu.clone(),
            mem_mib: cfg.mem_mib,
            gdb_socket: socket.clone(),
            console,
            bios,
            extra: if cfg.reproducible {
                REPRODUCIBLE.map(String::from).to_vec()
            } else {
                Vec::new()
            },
        };
        progress(&format!("starting QEMU {version} (-cpu {cpu})"));
        let mut qemu = Qemu::spawn(&launch)?;
        let mut gdb = connect_gdb(&mut qemu, &socket, Duration::from_secs(10))?;
        gdb.handshake()?;
        let map = gdb.registers()?;
        let regs = RiscvRegs::from_map(&map)?;
        gdb.set_breakpoint(facts.ecall, 4)?;
        Ok(Booted {
            qemu,
            gdb,
            map,
            regs,
            ecall: facts.ecall,
            hits: 0,
            interrupted_steps: 0,
            tick_handler: None,
            cpu,
            isa: isa.isa,
            version,
            work,
            facts,
            cfg: cfg.clone(),
        })
    }

    fn reg(&mut self, regnum: u32) -> Result<u64, TakeError> {
        let b = self.gdb.read_reg(regnum)?;
        Ok(le_u64(&b))
    }

    /// Masks every interrupt (mie = 0), so that what follows is the loop
    /// alone, in QEMU and in trapscope (docs/decisions.md D12).
    pub fn quiesce(&mut self) -> Result<(), TakeError> {
        let mie = *self
            .regs
            .csr
            .get("mie")
            .ok_or(TakeError::NotShown { what: "mie" })?;
        Ok(self.gdb.write_reg(mie, &0u64.to_le_bytes())?)
    }
}

/// `trapscope snapshot`: boot, stop at the `at`-th ecall, mask interrupts,
/// save, and stop QEMU.
pub fn take(cfg: &Config, out: &Path, progress: &mut dyn FnMut(&str)) -> Result<(), TakeError> {
    if cfg.at == 0 {
        return Err(TakeError::AtZero);
    }
    // A snapshot's RAM is at most what the emulator can load (format.rs
    // checks it on load too).
    if cfg.mem_mib == 0 || cfg.mem_mib > format::RAM_MAX_MIB {
        return Err(TakeError::Mem { mib: cfg.mem_mib });
    }
    reap_stale(out);
    let target = out::prepare_out(out)?;
    let mut b = Booted::start(cfg, progress)?;
    if cfg.ticks {
        b.run_to_tick(cfg.at, progress)?;
        progress(&format!(
            "stopped at the kernel's entry for the {} timer interrupt at {}; dumping registers and {} MiB of RAM (interrupts left on)",
            ordinal(cfg.at),
            cfg.ecall_symbol,
            cfg.mem_mib
        ));
    } else {
        b.run_to(cfg.at, progress)?;
        progress(&format!(
            "stopped at the {} {}; dumping registers and {} MiB of RAM",
            ordinal(cfg.at),
            cfg.ecall_symbol,
            cfg.mem_mib
        ));
        b.quiesce()?;
    }
    // Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) during the dump: a new DIR is
    // never put in place, and the partial one is removed as it drops.
    let interrupted = crate::machine::sigint::requested;
    match target {
        out::Out::InPlace => b.save(out)?,
        out::Out::New => {
            let partial = out::partial(out)?;
            b.save(partial.path())?;
            if interrupted() {
                return Err(TakeError::Interrupted);
            }
            out::finish(partial, out)?;
        }
    }
    if interrupted() {
        return Err(TakeError::Interrupted);
    }
    progress(&format!("wrote {}", out.display()));
    Ok(())
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

/// Removes what runs killed outright (SIGKILL runs no destructor) left:
/// their scratch directories in TMPDIR and a partial `-o DIR` beside this
/// one (`output::reap_stale`: only a dead run's own). Silent: nothing it
/// removes is anyone's.
fn reap_stale(out: &Path) {
    let tmp = std::env::temp_dir();
    crate::output::reap_stale(&tmp, SCRATCH);
    crate::output::reap_stale(&tmp, qemu::DTB_SCRATCH);
    crate::output::reap_stale(crate::output::dir_of(out), out::PARTIAL);
}

fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
