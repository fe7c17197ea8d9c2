//! Reading the stopped guest out of QEMU: every register through the
//! gdbstub, the CLINT and RAM through the monitor, and the snapshot
//! directory written from them.

use std::path::Path;

use super::super::gdb::{FCSR, VECTOR_CSRS};
use super::booted::{Booted, le_u64};
use super::config::{Guest, MTIME, MTIMECMP, RAM_BASE};
use super::error::TakeError;
use crate::snapshot::format::{
    self, Csr, HartDump, Hex, Manifest, PlatformDump, Snapshot, VectorDump,
};

impl Booted {
    /// Every register the snapshot keeps.
    pub fn hart(&mut self) -> Result<HartDump, TakeError> {
        let pc = self.reg(self.regs.pc)?;
        let privilege = match self.regs.priv_ {
            Some(r) => match self.reg(r)? & 3 {
                0 => "U",
                1 => "S",
                _ => "M",
            },
            None => {
                return Err(TakeError::NotShown {
                    what: "the privilege (priv)",
                });
            }
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
        check_fp_count(&self.isa, f.len())?;
        if f.len() != 32 {
            f.clear();
        }
        let mut csrs = Vec::new();
        let named: Vec<(String, u32)> =
            self.regs.csr.iter().map(|(n, r)| (n.clone(), *r)).collect();
        for (name, regnum) in named {
            let Some(bytes) = self.gdb.try_read_reg(regnum)? else {
                continue;
            };
            csrs.push(Csr {
                csr: Hex(u64::from(regnum - self.regs.csr_base)),
                name,
                value: Hex(le_u64(&bytes)),
            });
        }
        csrs.sort_by_key(|c| c.csr.0);
        // Every CSR trapscope restores must come from the stub: one it
        // cannot read is refused, never resumed as 0.
        for num in (0u16..0x1000).filter(|&n| crate::machine::restorable(n)) {
            if !csrs.iter().any(|c| c.csr.0 == u64::from(num)) {
                return Err(TakeError::NoCsr {
                    num,
                    needs: "a snapshot restores",
                });
            }
        }
        if !f.is_empty() && fcsr.is_none() {
            fcsr = Some(Hex(self.fcsr(&csrs)?));
        }
        let vector = self.vector()?;
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

    /// fcsr when the FP feature does not list it: the csr feature's, or
    /// else `p` at the CSR base + 3, which QEMU 7.2 answers although it
    /// leaves fcsr out of its list (built while FS was Off).
    fn fcsr(&mut self, csrs: &[Csr]) -> Result<u64, TakeError> {
        let num = u64::from(FCSR);
        if let Some(c) = csrs.iter().find(|c| c.csr.0 == num) {
            return Ok(c.value.0);
        }
        let regnum = self.regs.csr_regnum_unlisted(FCSR);
        match self.gdb.read_reg(regnum) {
            Ok(b) => Ok(le_u64(&b)),
            Err(err) => Err(TakeError::NoFcsr { regnum, err }),
        }
    }

    fn vector(&mut self) -> Result<Option<VectorDump>, TakeError> {
        let Some(vlen) = self.regs.vlen_bits else {
            return Ok(None);
        };
        let mut val = std::collections::BTreeMap::new();
        for name in VECTOR_CSRS {
            let regnum = *self
                .regs
                .vector_csrs
                .get(name)
                .ok_or(TakeError::NoVectorCsr { name })?;
            let b = self
                .gdb
                .read_reg(regnum)
                .map_err(|err| TakeError::VectorCsr { name, err })?;
            val.insert(name, le_u64(&b));
        }
        let get = |n: &str| val.get(n).copied().unwrap_or_default();
        if get("vlenb") * 8 != u64::from(vlen) {
            return Err(TakeError::Vlenb {
                vlenb: get("vlenb"),
                vlen,
            });
        }
        // vcsr holds vxrm and vxsat (V spec §3.9): the three must agree.
        let (vxrm, vxsat, vcsr) = (get("vxrm"), get("vxsat"), get("vcsr"));
        if vcsr != (vxrm & 3) << 1 | (vxsat & 1) {
            return Err(TakeError::Vcsr { vcsr, vxrm, vxsat });
        }
        let mut v = Vec::new();
        for r in self.regs.v.clone() {
            let b = self.gdb.read_reg(r)?;
            v.push(format::to_hex(&b));
        }
        Ok(Some(VectorDump {
            vlen,
            v,
            vl: Hex(get("vl")),
            vtype: Hex(get("vtype")),
            vstart: Hex(get("vstart")),
            vcsr: Hex(vcsr),
        }))
    }

    /// A physical 64-bit word through QEMU's monitor (`xp`).
    fn phys_u64(&mut self, addr: u64) -> Result<u64, TakeError> {
        let out = self.gdb.monitor(&format!("xp /1gx {addr:#x}"))?;
        out.rsplit(':')
            .next()
            .and_then(|v| u64::from_str_radix(v.trim().trim_start_matches("0x"), 16).ok())
            .ok_or_else(|| TakeError::Monitor {
                addr,
                out: out.clone(),
            })
    }

    /// The CLINT's state: mtime, hart 0's mtimecmp, its msip bit.
    pub fn platform(&mut self) -> Result<PlatformDump, TakeError> {
        Ok(PlatformDump {
            mtime: Hex(self.phys_u64(MTIME)?),
            mtimecmp: Hex(self.phys_u64(MTIMECMP)?),
            msip: Hex(self.phys_u64(0x0200_0000)? & 1),
        })
    }

    /// RAM, through the monitor's `pmemsave` into the scratch directory.
    pub fn ram(&mut self) -> Result<Vec<u8>, TakeError> {
        let path = self.work.join("ram.bin");
        let size = u64::from(self.cfg.mem_mib) << 20;
        let out = self.gdb.monitor(&format!(
            "pmemsave {RAM_BASE:#x} {size:#x} {}",
            monitor_string(&path)?
        ))?;
        let ram = std::fs::read(&path).map_err(|err| TakeError::RamNotSaved {
            err,
            out: out.clone(),
        })?;
        let _ = std::fs::remove_file(&path);
        if ram.len() as u64 != size {
            return Err(TakeError::RamSize {
                got: ram.len(),
                size,
            });
        }
        Ok(ram)
    }

    /// The whole snapshot at the current stop, written to `dir`.
    pub fn save(&mut self, dir: &Path) -> Result<(), TakeError> {
        let hart = self.hart()?;
        let counter = self.checked_counter(hart.x[super::step::COUNTER_REG].0)?;
        let platform = self.platform()?;
        let ram = self.ram()?;
        let (image, vmlinux) = match &self.cfg.guest {
            Guest::Linux { image, vmlinux, .. } => (absolute(image), Some(absolute(vmlinux))),
            Guest::Elf(p) => (absolute(p), None),
        };
        let append = super::config::kernel_append(&self.cfg);
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
                counter,
                tick_handler: self.tick_handler.map(Hex),
                sources: self.facts.sources.entries.clone(),
            },
            qemu: format::QemuInfo {
                version: self.version.to_string(),
                cpu: self.cpu.clone(),
                isa: self.isa.clone(),
                command_line: self.qemu.command_line(),
                reproducible: self.cfg.reproducible,
            },
        };
        Snapshot::write(dir, &manifest, &ram)?;
        // As Snapshot::write: a new file renamed over the name.
        let put = |name: &str, bytes: &[u8]| crate::output::replace(&dir.join(name), bytes);
        put(format::INIT_FILE, &self.facts.init_elf)?;
        put(
            format::CONSOLE_FILE,
            self.qemu.console_tail(usize::MAX).as_bytes(),
        )?;
        Ok(super::super::init_src::write(dir, &self.facts.sources)?)
    }
}

/// A hart whose `riscv,isa` names F or D needs all 32 FP registers from
/// the stub's FP feature: fewer is refused, never resumed as zeros.
fn check_fp_count(isa: &str, got: usize) -> Result<(), TakeError> {
    let base = isa.split('_').next().unwrap_or("");
    let letters = base
        .strip_prefix("rv64")
        .or_else(|| base.strip_prefix("rv32"));
    let has_fp = letters.is_some_and(|l| l.contains(['f', 'd', 'g']));
    if has_fp && got != 32 {
        return Err(TakeError::FpCount {
            got,
            isa: isa.to_string(),
        });
    }
    Ok(())
}

/// `p` as a string argument of QEMU's monitor: in double quotes, with
/// `\`, `"`, newline and carriage return escaped as the monitor's parser
/// reads them (so a `"` in TMPDIR cannot end the name early). A path that
/// is not UTF-8 cannot be passed exactly, and is refused.
pub(super) fn monitor_string(p: &Path) -> Result<String, TakeError> {
    let text = p.to_str().ok_or_else(|| TakeError::NotUtf8Path {
        path: p.to_path_buf(),
    })?;
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    Ok(out)
}

fn absolute(p: &Path) -> String {
    std::fs::canonicalize(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::{check_fp_count, monitor_string};

    #[test]
    fn a_hart_with_f_or_d_needs_all_32_fp_registers() {
        assert!(check_fp_count("rv64imafdc_zicsr_zifencei", 32).is_ok());
        assert!(check_fp_count("rv64imac_zicsr", 0).is_ok());
        let e = check_fp_count("rv64imafdc_zicsr", 12)
            .unwrap_err()
            .to_string();
        assert!(e.contains("12 of the 32 FP registers"), "{e}");
        assert!(check_fp_count("rv64imafdc", 0).is_err());
    }
    use std::path::Path;

    #[test]
    fn monitor_strings_escape_quotes_and_backslashes() {
        assert_eq!(
            monitor_string(Path::new("/tmp/a\"b\\c/ram.bin")).unwrap(),
            r#""/tmp/a\"b\\c/ram.bin""#
        );
        assert_eq!(
            monitor_string(Path::new("/t/x\ny")).unwrap(),
            r#""/t/x\ny""#
        );
    }
}
