//! `trapscope snapshot`: boot a guest in qemu-system-riscv64, stop it at the
//! N-th execution of its loop's `ecall` through the gdbstub, and write the
//! machine's state (format.rs).
//!
//! The guest is a Linux kernel (`Image`, with its `vmlinux` for the build id
//! and symbols) running trapscope's own `/init` (assets/init/), or a
//! bare-metal ELF booted with `-bios none` (trapscope's minikernel: CI tests
//! the path on it). The live session (`Booted`) is public so that tests can
//! let QEMU run on past the snapshot as the oracle.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::format;
use super::gdb::{Gdb, RegMap, RiscvRegs};
use super::qemu::{self, Launch, Qemu};

mod dump;
mod guest;
mod step;
use dump::le_u64;
use guest::{GuestFacts, guest_facts};

/// The base and size of QEMU virt's RAM as trapscope boots it.
pub const RAM_BASE: u64 = 0x8000_0000;
pub const DEFAULT_MEM_MIB: u32 = 128;
/// The kernel command line: the console on the 16550, Sv39 (trapscope's MMU),
/// and trapscope's init.
pub const LINUX_APPEND: &str = "console=ttyS0 earlycon=sbi no4lvl rdinit=/init";
/// CLINT registers (QEMU virt): mtimecmp of hart 0, mtime.
const MTIMECMP: u64 = 0x0200_4000;
const MTIME: u64 = 0x0200_bff8;

/// What to boot.
#[derive(Clone, Debug)]
pub enum Guest {
    Linux {
        image: PathBuf,
        vmlinux: PathBuf,
        /// The init program, an ELF from assets/init/.
        init: PathBuf,
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
    pub cpu: String,
    pub isa: String,
    pub version: qemu::Version,
    work: PathBuf,
    facts: GuestFacts,
    cfg: Config,
}

impl Drop for Booted {
    fn drop(&mut self) {
        self.gdb.kill();
        let _ = std::fs::remove_dir_all(&self.work);
    }
}

/// Connects to QEMU's gdbstub once it listens, ending early (one line)
/// when QEMU exits first or on Ctrl-C, rather than retrying a socket that
/// will never answer (QEMU killed by a terminal's Ctrl-C leaves the file).
fn connect_gdb(
    qemu: &mut Qemu,
    socket: &Path,
    limit: Duration,
) -> Result<Gdb<std::os::unix::net::UnixStream>, String> {
    let start = Instant::now();
    loop {
        if crate::machine::sigint::requested() {
            return Err("interrupted".into());
        }
        if let Some(why) = qemu.exited() {
            return Err(format!("QEMU ended before its gdbstub answered: {why}"));
        }
        match std::os::unix::net::UnixStream::connect(socket) {
            Ok(s) => {
                return Gdb::from_unix(s, limit)
                    .map_err(|e| format!("QEMU's gdbstub at {}: {e}", socket.display()));
            }
            Err(e) if start.elapsed() >= limit => {
                return Err(format!(
                    "QEMU's gdbstub did not answer at {} within {} s: {e}",
                    socket.display(),
                    limit.as_secs()
                ));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Owns the scratch directory until `keep` hands it on.
struct Scratch(Option<PathBuf>);

impl Scratch {
    fn keep(mut self) -> PathBuf {
        self.0.take().unwrap_or_default()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(d) = &self.0 {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// A scratch directory for the socket, the initramfs and the RAM dump:
/// made fresh, mode 0700, under a random name (`output::scratch_dir`).
fn work_dir() -> Result<PathBuf, String> {
    crate::output::scratch_dir("trapscope-snapshot")
}

impl Booted {
    /// Starts QEMU paused, checks the CPU it gives the guest, and connects.
    pub fn start(cfg: &Config, progress: &mut dyn FnMut(&str)) -> Result<Booted, String> {
        let facts = guest_facts(cfg)?;
        guest::check_tmpdir()?;
        let bin = qemu::find()?;
        let version = qemu::version(&bin)?;
        let cpu = qemu::cpu_arg(&version, cfg.vlen)?;
        let isa = qemu::guest_isa(&bin, &cpu)?;
        let lacking = qemu::unsupported_extensions(&isa, cfg.vlen.is_some());
        if !lacking.is_empty() {
            return Err(format!(
                "QEMU {version} gives the guest extensions trapscope cannot run: {} (riscv,isa = {}); pin the CPU with -cpu {cpu}",
                lacking.join(", "),
                isa.isa
            ));
        }
        let work = work_dir()?;
        // Removed again if the boot fails below (QEMU, declared later, is
        // dropped first); a Booted removes it when it is dropped.
        let scratch = Scratch(Some(work.clone()));
        let socket = work.join("gdb.sock");
        let console = work.join(format::CONSOLE_FILE);
        let (kernel, initrd, append, bios) = match &cfg.guest {
            Guest::Linux { image, .. } => {
                let rd = work.join("initramfs.cpio");
                crate::output::create_new(&rd, &super::cpio::initramfs(facts.init_elf.clone()))
                    .map_err(|e| {
                        e.unwrap_or_else(|| {
                            format!("{}: exists in a fresh directory", rd.display())
                        })
                    })?;
                let mut append = LINUX_APPEND.to_string();
                if !cfg.append.is_empty() {
                    append = format!("{append} {}", cfg.append);
                }
                (image.clone(), Some(rd), append, None)
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
            extra: Vec::new(),
        };
        progress(&format!("starting QEMU {version} (-cpu {cpu})"));
        let mut qemu = Qemu::spawn(&launch)?;
        let mut gdb = connect_gdb(&mut qemu, &socket, Duration::from_secs(10))?;
        gdb.handshake().map_err(|e| e.to_string())?;
        let map = gdb.registers().map_err(|e| e.to_string())?;
        let regs = RiscvRegs::from_map(&map).map_err(|e| e.to_string())?;
        gdb.set_breakpoint(facts.ecall, 4)
            .map_err(|e| e.to_string())?;
        Ok(Booted {
            qemu,
            gdb,
            map,
            regs,
            ecall: facts.ecall,
            hits: 0,
            interrupted_steps: 0,
            cpu,
            isa: isa.isa,
            version,
            work: scratch.keep(),
            facts,
            cfg: cfg.clone(),
        })
    }

    /// Runs until the guest stops before the `n`-th execution of the
    /// ecall. A stop at the breakpoint counts only once the step over the
    /// previous one took the ecall's own trap (`step_over`): a step that
    /// takes an interrupt instead comes back to the same ecall.
    pub fn run_to(&mut self, n: u64, progress: &mut dyn FnMut(&str)) -> Result<(), String> {
        let mut told = Instant::now();
        while self.hits < n {
            let first = self.hits == 0;
            // Whether the stop ahead is the next execution of the ecall.
            let next = first || self.step_over()?;
            // --timeout bounds every wait: the boot's, and each iteration's.
            let timeout = self.cfg.boot_timeout;
            let deadline = Instant::now() + timeout;
            let mut last_note = Instant::now();
            let mut seen = String::new();
            let qemu = &mut self.qemu;
            let mut died = None;
            let mut panicked = false;
            let mut poll = || {
                if crate::machine::sigint::requested() {
                    return false;
                }
                if let Some(why) = qemu.exited() {
                    died = Some(why);
                    return false;
                }
                if last_note.elapsed() >= Duration::from_secs(1) {
                    last_note = Instant::now();
                    let tail = qemu.console_tail(PANIC_LINES);
                    // A kernel that panics (an init that exits: a setup
                    // that failed, say) never makes the syscall: end the
                    // wait now rather than at the timeout.
                    if kernel_panicked(&tail) {
                        panicked = true;
                        return false;
                    }
                    let last = tail.lines().last().unwrap_or("").trim();
                    if first && last != seen && !last.is_empty() {
                        progress(&format!("booting: {last}"));
                        seen = last.to_string();
                    }
                }
                true
            };
            let r = self.gdb.cont_until_stop(deadline, &mut poll);
            // The gdbstub closes as QEMU exits (a guest that powers off):
            // give the process a moment to be reaped, so the error says so.
            if died.is_none()
                && matches!(
                    r,
                    Err(super::gdb::GdbError::Closed { .. } | super::gdb::GdbError::Io { .. })
                )
            {
                died = self.qemu.exited_within(Duration::from_secs(2));
            }
            if let Some(why) = died {
                return Err(format!(
                    "QEMU stopped ({why}) when the guest had reached {} ({:#x}) {} of {n} times{}",
                    self.cfg.ecall_symbol,
                    self.ecall,
                    self.hits,
                    self.console_note()
                ));
            }
            if crate::machine::sigint::requested() {
                return Err("interrupted".into());
            }
            if panicked {
                return Err(format!(
                    "the kernel stopped with a panic when the guest had reached {} ({:#x}) {} of {n} times{}",
                    self.cfg.ecall_symbol,
                    self.ecall,
                    self.hits,
                    self.console_note()
                ));
            }
            if let Err(e) = r {
                let what = if first {
                    format!(
                        "the guest did not reach {} ({:#x}) within {} s",
                        self.cfg.ecall_symbol,
                        self.ecall,
                        timeout.as_secs()
                    )
                } else {
                    format!("the loop stopped making its syscall ({e})")
                };
                return Err(format!("{what}{}", self.console_note()));
            }
            let pc = self.reg(self.regs.pc)?;
            if pc != self.ecall {
                return Err(format!(
                    "QEMU stopped at {pc:#x}, not at the ecall {:#x}{}",
                    self.ecall,
                    self.console_note()
                ));
            }
            if next {
                self.hits += 1;
            }
            // Each stop is a round trip through the gdbstub: a long --at
            // says how far it has got, about once a second.
            if !first && self.hits < n && told.elapsed() >= Duration::from_secs(1) {
                told = Instant::now();
                progress(&format!("{} of {n}", self.hits));
            }
            if first {
                progress(&format!(
                    "the guest reached {} (1 of {n})",
                    self.cfg.ecall_symbol
                ));
            }
        }
        Ok(())
    }

    /// Leaves the breakpoint at the ecall: QEMU would stop there again at
    /// once, so the breakpoint comes out for one step and goes back in.
    /// Returns whether the step took the ecall's trap (`step::Took`); an
    /// interrupt taken instead leaves the ecall to run after it returns.
    fn step_over(&mut self) -> Result<bool, String> {
        let e = |e: super::gdb::GdbError| e.to_string();
        let from = self.privilege()?;
        self.gdb.clear_breakpoint(self.ecall, 4).map_err(e)?;
        // A step that retired nothing is made again, a few times at most.
        let mut took = step::Took::Stayed;
        for _ in 0..STEP_TRIES {
            self.gdb.step().map_err(e)?;
            took = self.trap_after_step(from)?;
            if !matches!(took, step::Took::Stayed) {
                break;
            }
        }
        self.gdb.set_breakpoint(self.ecall, 4).map_err(e)?;
        match took {
            step::Took::Ecall => Ok(true),
            step::Took::Interrupt => {
                self.interrupted_steps += 1;
                Ok(false)
            }
            step::Took::Stayed => Err(format!(
                "{STEP_TRIES} steps over {} ({:#x}) in a row retired nothing{}",
                self.cfg.ecall_symbol,
                self.ecall,
                self.console_note()
            )),
            step::Took::Other(what) => Err(format!(
                "the step over {} ({:#x}) did not take its trap: {what}{}",
                self.cfg.ecall_symbol,
                self.ecall,
                self.console_note()
            )),
        }
    }

    fn console_note(&self) -> String {
        let tail = self.qemu.console_tail(8);
        if tail.trim().is_empty() {
            "; the console printed nothing".into()
        } else {
            format!("; console tail: {}", tail.trim().replace('\n', " | "))
        }
    }

    fn reg(&mut self, regnum: u32) -> Result<u64, String> {
        let b = self.gdb.read_reg(regnum).map_err(|e| e.to_string())?;
        Ok(le_u64(&b))
    }

    /// Masks every interrupt (mie = 0), so that what follows is the loop
    /// alone, in QEMU and in trapscope (DESIGN decision 12).
    pub fn quiesce(&mut self) -> Result<(), String> {
        let mie = *self
            .regs
            .csr
            .get("mie")
            .ok_or("the gdbstub does not show mie")?;
        self.gdb
            .write_reg(mie, &0u64.to_le_bytes())
            .map_err(|e| e.to_string())
    }
}

/// `trapscope snapshot`: boot, stop at the `at`-th ecall, mask interrupts,
/// save, and stop QEMU.
pub fn take(cfg: &Config, out: &Path, progress: &mut dyn FnMut(&str)) -> Result<(), String> {
    if cfg.at == 0 {
        return Err("--at must be at least 1".into());
    }
    // A snapshot's RAM is at most what the emulator can load (format.rs
    // checks it on load too).
    let max_mib = format::RAM_MAX_MIB;
    if cfg.mem_mib == 0 || cfg.mem_mib > max_mib {
        return Err(format!(
            "--mem {}: give the guest's RAM in MiB, from 1 to {max_mib} (the most trapscope can load from a snapshot)",
            cfg.mem_mib
        ));
    }
    let created = prepare_out(out)?;
    let r = (|| {
        let mut b = Booted::start(cfg, progress)?;
        b.run_to(cfg.at, progress)?;
        progress(&format!(
            "stopped at the {} ecall; dumping registers and {} MiB of RAM",
            ordinal(cfg.at),
            cfg.mem_mib
        ));
        b.quiesce()?;
        b.save(out)?;
        // Ctrl-C during the dump: exit 130 leaves no snapshot behind.
        if crate::machine::sigint::requested() {
            return Err("interrupted".to_string());
        }
        Ok(())
    })();
    if r.is_err() && created {
        // No half-written snapshot is left behind.
        let _ = std::fs::remove_dir_all(out);
    }
    r?;
    progress(&format!("wrote {}", out.display()));
    Ok(())
}

/// Makes sure, before QEMU boots, that the snapshot can be written to
/// `out`: an existing directory trapscope may write into, or one it can
/// create (created now; `Ok(true)` says so, for removal if the snapshot
/// then fails).
fn prepare_out(out: &Path) -> Result<bool, String> {
    let bad = |why: String| format!("-o {}: {why}", out.display());
    // Not followed: a link at DIR is refused (output::check_own_dir).
    let created = match std::fs::symlink_metadata(out) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(bad("is a symbolic link: give the directory itself".into()));
        }
        Ok(m) if !m.is_dir() => return Err(bad("exists and is not a directory".into())),
        Ok(_) => {
            crate::output::check_own_dir(out).map_err(|e| format!("-o {e}"))?;
            // An earlier snapshot is replaced; anything else is left alone.
            let foreign = std::fs::read_dir(out)
                .map_err(|e| bad(format!("cannot read the directory: {e}")))?
                .flatten()
                .any(|e| {
                    let n = e.file_name();
                    ![
                        format::MANIFEST,
                        format::RAM_FILE,
                        format::INIT_FILE,
                        format::CONSOLE_FILE,
                    ]
                    .iter()
                    .any(|k| n == *k)
                });
            if foreign {
                return Err(bad(
                    "exists and holds files that are not a snapshot's: give a new or empty directory".into(),
                ));
            }
            false
        }
        Err(_) => {
            std::fs::create_dir_all(out)
                .map_err(|e| bad(format!("cannot create the directory: {e}")))?;
            true
        }
    };
    let probe = out.join(format!(".trapscope-write-test-{}", std::process::id()));
    if let Err(e) = crate::output::create_new(&probe, b"") {
        if created {
            let _ = std::fs::remove_dir_all(out);
        }
        let why = e.unwrap_or_else(|| format!("{} exists", probe.display()));
        return Err(bad(format!("cannot write into the directory: {why}")));
    }
    let _ = std::fs::remove_file(&probe);
    Ok(created)
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

/// The console lines [`kernel_panicked`] looks at: Linux's panic() ends with
/// the "---[ end Kernel panic - not syncing: ... ]---" line, after which
/// the kernel prints nothing more (the default panic timeout is 0: halt).
const PANIC_LINES: usize = 3;
/// How many times the step over the ecall is made when it retires nothing.
const STEP_TRIES: u32 = 4;

/// Whether the console's last lines hold Linux's panic() banner
/// ("Kernel panic - not syncing: "), which it prints before halting.
fn kernel_panicked(tail: &str) -> bool {
    tail.contains("Kernel panic - not syncing")
}
