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

use super::format::{self, Csr, HartDump, Hex, Manifest, PlatformDump, Snapshot, VectorDump};
use super::gdb::{Gdb, RegMap, RiscvRegs};
use super::qemu::{self, Launch, Qemu};
use crate::machine::Program;

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

/// The files and facts a snapshot's manifest records about its guest.
struct GuestFacts {
    init_elf: Vec<u8>,
    ecall: u64,
    loop_top: u64,
    init_name: String,
    build_id: Option<String>,
}

fn read(path: &Path, what: &str) -> Result<Vec<u8>, String> {
    crate::input::read_regular(path, what, crate::input::KERNEL_IMAGE_MAX)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The RISC-V Linux Image header (Documentation/arch/riscv/boot-image-header.rst):
/// "RISCV\0\0\0" at 0x30 and "RSC\x05" at 0x38.
fn check_image(path: &Path, b: &[u8]) -> Result<(), String> {
    if b.get(0x30..0x38) == Some(b"RISCV\0\0\0") && b.get(0x38..0x3c) == Some(b"RSC\x05") {
        return Ok(());
    }
    if b.starts_with(b"\x7fELF") {
        return Err(format!(
            "{}: an ELF file, not a kernel Image: give arch/riscv/boot/Image as --kernel and the ELF as --vmlinux",
            path.display()
        ));
    }
    Err(format!(
        "{}: not a RISC-V Linux Image (no RISCV/RSC magic at 0x30)",
        path.display()
    ))
}

fn symbol_addr(p: &Program, name: &str) -> Result<u64, String> {
    p.symbol(name)
        .map(|s| s.addr)
        .ok_or_else(|| format!("{}: has no symbol '{name}'", p.path.display()))
}

fn guest_facts(cfg: &Config) -> Result<GuestFacts, String> {
    let (init_path, build_id) = match &cfg.guest {
        Guest::Linux {
            image,
            vmlinux,
            init,
        } => {
            let img = read(image, "kernel Image")?;
            check_image(image, &img)?;
            let vm = read(vmlinux, "vmlinux")?;
            crate::machine::elfhdr::check_ident(&vm)
                .map_err(|e| format!("{}: {e}", vmlinux.display()))?;
            let id = super::variant::build_id(&vm).ok_or_else(|| {
                format!(
                    "{}: has no GNU build id (.note.gnu.build-id), which ties a snapshot to its kernel",
                    vmlinux.display()
                )
            })?;
            let raw = (0..id.len())
                .step_by(2)
                .filter_map(|i| u8::from_str_radix(&id[i..i + 2], 16).ok())
                .collect::<Vec<u8>>();
            if !img.windows(raw.len()).any(|w| w == raw.as_slice()) {
                return Err(format!(
                    "{}: build id {id} of {} is not in this Image: the vmlinux does not match the Image",
                    image.display(),
                    vmlinux.display()
                ));
            }
            (init.clone(), Some(id))
        }
        Guest::Elf(p) => (p.clone(), None),
    };
    let what = match cfg.guest {
        Guest::Linux { .. } => "init ELF",
        Guest::Elf(_) => "guest ELF",
    };
    let bytes = read(&init_path, what)?;
    let prog = Program::parse(&init_path, &bytes).map_err(|e| e.to_string())?;
    let ecall = symbol_addr(&prog, &cfg.ecall_symbol)?;
    let loop_top = symbol_addr(&prog, &cfg.loop_symbol)?;
    let name = init_path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(GuestFacts {
        init_elf: bytes,
        ecall,
        loop_top,
        init_name: name,
        build_id,
    })
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

/// A scratch directory for the socket, the initramfs and the RAM dump.
fn work_dir() -> Result<PathBuf, String> {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("trapscope-snapshot-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    Ok(d)
}

impl Booted {
    /// Starts QEMU paused, checks the CPU it gives the guest, and connects.
    pub fn start(cfg: &Config, progress: &mut dyn FnMut(&str)) -> Result<Booted, String> {
        let facts = guest_facts(cfg)?;
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
                std::fs::write(&rd, super::cpio::initramfs(facts.init_elf.clone()))
                    .map_err(|e| format!("{}: {e}", rd.display()))?;
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
            cpu,
            isa: isa.isa,
            version,
            work: scratch.keep(),
            facts,
            cfg: cfg.clone(),
        })
    }

    /// Runs until the ecall has been reached `n` times in all.
    pub fn run_to(&mut self, n: u64, progress: &mut dyn FnMut(&str)) -> Result<(), String> {
        while self.hits < n {
            let first = self.hits == 0;
            if !first {
                self.step_over()?;
            }
            let timeout = if first {
                self.cfg.boot_timeout
            } else {
                Duration::from_secs(30)
            };
            let deadline = Instant::now() + timeout;
            let mut last_note = Instant::now();
            let mut seen = String::new();
            let qemu = &mut self.qemu;
            let mut died = None;
            let mut poll = || {
                if crate::machine::sigint::requested() {
                    return false;
                }
                if let Some(why) = qemu.exited() {
                    died = Some(why);
                    return false;
                }
                if first && last_note.elapsed() >= Duration::from_secs(1) {
                    last_note = Instant::now();
                    let tail = qemu.console_tail(1);
                    if tail != seen && !tail.trim().is_empty() {
                        progress(&format!("booting: {}", tail.trim()));
                        seen = tail;
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
            self.hits += 1;
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
    /// once, so the breakpoint comes out for one step (which takes the
    /// trap) and goes back in.
    fn step_over(&mut self) -> Result<(), String> {
        let e = |e: super::gdb::GdbError| e.to_string();
        self.gdb.clear_breakpoint(self.ecall, 4).map_err(e)?;
        self.gdb.step().map_err(e)?;
        self.gdb.set_breakpoint(self.ecall, 4).map_err(e)
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

    /// Every register the snapshot keeps.
    pub fn hart(&mut self) -> Result<HartDump, String> {
        let pc = self.reg(self.regs.pc)?;
        let privilege = match self.regs.priv_ {
            Some(r) => match self.reg(r)? & 3 {
                0 => "U",
                1 => "S",
                _ => "M",
            },
            None => return Err("the gdbstub does not show the privilege (priv)".into()),
        };
        let mut x = vec![Hex(0)];
        for i in 1..32 {
            x.push(Hex(self.reg(self.regs.x[i])?));
        }
        let mut fregs: Vec<(u32, String)> = self
            .map
            .feature("org.gnu.gdb.riscv.fpu")
            .map(|(n, r)| (r.regnum, n.to_string()))
            .collect();
        fregs.sort();
        let mut f = Vec::new();
        let mut fcsr = None;
        for (regnum, name) in &fregs {
            let v = self.reg(*regnum)?;
            match name.as_str() {
                "fcsr" => fcsr = Some(Hex(v)),
                "fflags" | "frm" => {}
                _ => f.push(Hex(v)),
            }
        }
        if f.len() != 32 {
            f.clear();
        }
        let mut csrs = Vec::new();
        let named: Vec<(String, u32)> =
            self.regs.csr.iter().map(|(n, r)| (n.clone(), *r)).collect();
        for (name, regnum) in named {
            let Some(bytes) = self.gdb.try_read_reg(regnum).map_err(|e| e.to_string())? else {
                continue;
            };
            csrs.push(Csr {
                csr: Hex(u64::from(regnum - self.regs.csr_base)),
                name,
                value: Hex(le_u64(&bytes)),
            });
        }
        csrs.sort_by_key(|c| c.csr.0);
        let vector = self.vector(&csrs)?;
        Ok(HartDump {
            pc: Hex(pc),
            privilege: privilege.into(),
            x,
            f,
            fcsr,
            csrs,
            vector,
        })
    }

    fn vector(&mut self, csrs: &[Csr]) -> Result<Option<VectorDump>, String> {
        let Some(vlen) = self.regs.vlen_bits else {
            return Ok(None);
        };
        let csr = |n: u64| {
            csrs.iter()
                .find(|c| c.csr.0 == n)
                .map_or(Hex(0), |c| c.value)
        };
        let mut v = Vec::new();
        for r in self.regs.v.clone() {
            let b = self.gdb.read_reg(r).map_err(|e| e.to_string())?;
            v.push(format::to_hex(&b));
        }
        Ok(Some(VectorDump {
            vlen,
            v,
            vl: csr(0xc20),
            vtype: csr(0xc21),
            vstart: csr(0x008),
            vcsr: csr(0x00f),
        }))
    }

    /// A physical 64-bit word through QEMU's monitor (`xp`).
    fn phys_u64(&mut self, addr: u64) -> Result<u64, String> {
        let out = self
            .gdb
            .monitor(&format!("xp /1gx {addr:#x}"))
            .map_err(|e| e.to_string())?;
        out.rsplit(':')
            .next()
            .and_then(|v| u64::from_str_radix(v.trim().trim_start_matches("0x"), 16).ok())
            .ok_or_else(|| format!("QEMU's monitor gave no value for {addr:#x}: {}", out.trim()))
    }

    /// RAM, through the monitor's `pmemsave` into the scratch directory.
    pub fn ram(&mut self) -> Result<Vec<u8>, String> {
        let path = self.work.join("ram.bin");
        let size = u64::from(self.cfg.mem_mib) << 20;
        let out = self
            .gdb
            .monitor(&format!(
                "pmemsave {RAM_BASE:#x} {size:#x} \"{}\"",
                path.display()
            ))
            .map_err(|e| e.to_string())?;
        let ram = std::fs::read(&path)
            .map_err(|e| format!("QEMU did not save RAM ({e}): {}", out.trim()))?;
        let _ = std::fs::remove_file(&path);
        if ram.len() as u64 != size {
            return Err(format!("QEMU saved {} bytes of RAM, not {size}", ram.len()));
        }
        Ok(ram)
    }

    /// The whole snapshot at the current stop, written to `dir`.
    pub fn save(&mut self, dir: &Path) -> Result<(), String> {
        let hart = self.hart()?;
        let platform = PlatformDump {
            mtime: Hex(self.phys_u64(MTIME)?),
            mtimecmp: Hex(self.phys_u64(MTIMECMP)?),
            msip: Hex(self.phys_u64(0x0200_0000)? & 1),
        };
        let ram = self.ram()?;
        let (image, vmlinux, append) = match &self.cfg.guest {
            Guest::Linux { image, vmlinux, .. } => (
                absolute(image),
                Some(absolute(vmlinux)),
                LINUX_APPEND.to_string(),
            ),
            Guest::Elf(p) => (absolute(p), None, String::new()),
        };
        let manifest = Manifest {
            format: format::FORMAT.into(),
            version: format::VERSION,
            made_by: format!("trapscope {}", env!("CARGO_PKG_VERSION")),
            ram: format::Ram {
                base: Hex(RAM_BASE),
                size: Hex(ram.len() as u64),
                fnv1a64: Hex(format::fnv1a64(&ram)),
            },
            hart,
            platform,
            kernel: format::Kernel {
                image,
                vmlinux,
                build_id: self.facts.build_id.clone(),
                append,
            },
            init: format::Init {
                name: self.facts.init_name.clone(),
                ecall: Hex(self.facts.ecall),
                loop_top: Hex(self.facts.loop_top),
                at: self.hits,
            },
            qemu: format::QemuInfo {
                version: self.version.to_string(),
                cpu: self.cpu.clone(),
                isa: self.isa.clone(),
                command_line: self.qemu.command_line(),
            },
        };
        Snapshot::write(dir, &manifest, &ram)?;
        let put = |name: &str, bytes: &[u8]| {
            std::fs::write(dir.join(name), bytes).map_err(|e| format!("{}: {e}", dir.display()))
        };
        put(format::INIT_FILE, &self.facts.init_elf)?;
        put(
            format::CONSOLE_FILE,
            self.qemu.console_tail(usize::MAX).as_bytes(),
        )
    }
}

fn absolute(p: &Path) -> String {
    std::fs::canonicalize(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

fn le_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    for (d, s) in a.iter_mut().zip(b) {
        *d = *s;
    }
    u64::from_le_bytes(a)
}

/// `trapscope snapshot`: boot, stop at the `at`-th ecall, mask interrupts,
/// save, and stop QEMU.
pub fn take(cfg: &Config, out: &Path, progress: &mut dyn FnMut(&str)) -> Result<(), String> {
    if cfg.at == 0 {
        return Err("--at must be at least 1".into());
    }
    // A snapshot's RAM is at most 2 GiB (format.rs checks it on load).
    let max_mib = crate::input::KERNEL_IMAGE_MAX >> 20;
    if cfg.mem_mib == 0 || u64::from(cfg.mem_mib) > max_mib {
        return Err(format!(
            "--mem {}: give the guest's RAM in MiB, from 1 to {max_mib} (a snapshot holds at most 2 GiB)",
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
    let created = match std::fs::metadata(out) {
        Ok(m) if !m.is_dir() => return Err(bad("exists and is not a directory".into())),
        Ok(_) => {
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
    if let Err(e) = std::fs::write(&probe, b"") {
        if created {
            let _ = std::fs::remove_dir_all(out);
        }
        return Err(bad(format!("cannot write into the directory: {e}")));
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
