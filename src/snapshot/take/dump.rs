//! Reading the stopped guest out of QEMU: every register through the
//! gdbstub, the CLINT and RAM through the monitor, and the snapshot
//! directory written from them.

use std::path::Path;

use super::super::format::{
    self, Csr, HartDump, Hex, Manifest, PlatformDump, Snapshot, VectorDump,
};
use super::{Booted, Guest, LINUX_APPEND, MTIME, MTIMECMP, RAM_BASE};

impl Booted {
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
        // As Snapshot::write: a new file renamed over the name.
        let put = |name: &str, bytes: &[u8]| crate::output::replace(&dir.join(name), bytes);
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

pub(super) fn le_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    for (d, s) in a.iter_mut().zip(b) {
        *d = *s;
    }
    u64::from_le_bytes(a)
}
