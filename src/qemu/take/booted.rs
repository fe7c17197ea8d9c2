//! The live QEMU session a take drives: the process, its gdb connection
//! and the register map, ended with the process when dropped.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::qemu::gdb::{Gdb, RegMap, RiscvRegs};
use crate::qemu::take::config::{Config, Guest, REPRODUCIBLE, kernel_append};
use crate::qemu::take::error::TakeError;
use crate::qemu::take::guest::{self, GuestFacts, guest_facts};
use crate::qemu::{self, Launch, Qemu};
use crate::snapshot::format;

/// A guest running in QEMU, stopped under the gdbstub.
pub struct Booted {
    pub qemu: Qemu,
    pub gdb: Gdb<std::os::unix::net::UnixStream>,
    pub(in crate::qemu::take) map: RegMap,
    pub(in crate::qemu::take) regs: RiscvRegs,
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
    pub(in crate::qemu::take) work: crate::output::ScratchDir,
    pub(in crate::qemu::take) facts: GuestFacts,
    pub(in crate::qemu::take) cfg: Config,
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
                crate::output::create_new(
                    &rd,
                    &crate::qemu::cpio::initramfs(facts.init_elf.clone()),
                )
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

    pub(in crate::qemu::take) fn reg(&mut self, regnum: u32) -> Result<u64, TakeError> {
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

pub(super) fn le_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    for (d, s) in a.iter_mut().zip(b) {
        *d = *s;
    }
    u64::from_le_bytes(a)
}
