//! What `trapscope snapshot` checks and learns about the guest before QEMU
//! starts: a RISC-V Image whose vmlinux matches it, the init's loop symbols
//! and sources (read now, as they are when the snapshot starts); and the
//! host's temporary directory, where QEMU's files go.

use std::path::Path;

use super::config::{Config, Guest};
use super::error::GuestError;
use crate::machine::Program;

/// The files and facts a snapshot's manifest records about its guest.
pub(super) struct GuestFacts {
    pub init_elf: Vec<u8>,
    pub ecall: u64,
    pub loop_top: u64,
    pub init_name: String,
    pub build_id: Option<String>,
    /// The init's sources, found beside it (`init_src`).
    pub sources: crate::qemu::init_src::Collected,
}

fn read(path: &Path, what: &str) -> Result<Vec<u8>, GuestError> {
    crate::input::read_regular(path, what, crate::input::KERNEL_IMAGE_MAX).map_err(|err| {
        GuestError::Read {
            path: path.to_path_buf(),
            err,
        }
    })
}

/// The RISC-V Linux Image header (Documentation/arch/riscv/boot-image-header.rst):
/// "RISCV\0\0\0" at 0x30 and "RSC\x05" at 0x38.
fn check_image(path: &Path, b: &[u8]) -> Result<(), GuestError> {
    if b.get(0x30..0x38) == Some(b"RISCV\0\0\0") && b.get(0x38..0x3c) == Some(b"RSC\x05") {
        return Ok(());
    }
    let path = path.to_path_buf();
    if b.starts_with(b"\x7fELF") {
        return Err(GuestError::ElfNotImage { path });
    }
    Err(GuestError::NotImage { path })
}

fn symbol_addr(p: &Program, name: &str) -> Result<u64, GuestError> {
    p.symbol(name)
        .map(|s| s.addr)
        .ok_or_else(|| GuestError::NoSymbol {
            path: p.path.clone(),
            name: name.to_string(),
        })
}

pub(super) fn guest_facts(cfg: &Config) -> Result<GuestFacts, GuestError> {
    let (init_path, build_id) = match &cfg.guest {
        Guest::Linux {
            image,
            vmlinux,
            init,
            ..
        } => {
            let img = read(image, "kernel Image")?;
            check_image(image, &img)?;
            let vm = read(vmlinux, "vmlinux")?;
            crate::program::elfhdr::check_ident(&vm).map_err(|err| GuestError::VmlinuxHeader {
                path: vmlinux.clone(),
                err,
            })?;
            let raw = crate::snapshot::variant::build_id_bytes(&vm).ok_or_else(|| {
                GuestError::NoBuildId {
                    path: vmlinux.clone(),
                }
            })?;
            let id = crate::snapshot::format::to_hex(&raw);
            if !img.windows(raw.len()).any(|w| w == raw.as_slice()) {
                return Err(GuestError::Mismatch {
                    image: image.clone(),
                    vmlinux: vmlinux.clone(),
                    id,
                });
            }
            (init.clone(), Some(id))
        }
        Guest::Elf(p) => (p.clone(), None),
    };
    let (what, short) = match cfg.guest {
        Guest::Linux { .. } => ("init ELF", "init"),
        Guest::Elf(_) => ("guest ELF", "ELF"),
    };
    let bytes = read(&init_path, what)?;
    let prog = Program::parse(&init_path, &bytes)?;
    // QEMU virt with -bios none starts the hart at RAM's base, whatever
    // the ELF's entry says: a guest that starts elsewhere would run from
    // the wrong instruction.
    if matches!(cfg.guest, Guest::Elf(_)) && prog.entry != super::config::RAM_BASE {
        return Err(GuestError::Entry {
            path: init_path,
            entry: prog.entry,
        });
    }
    let ecall = symbol_addr(&prog, &cfg.ecall_symbol)?;
    let loop_top = symbol_addr(&prog, &cfg.loop_symbol)?;
    let name = init_path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let sources = crate::qemu::init_src::collect(&init_path, &bytes, short);
    Ok(GuestFacts {
        init_elf: bytes,
        ecall,
        loop_top,
        init_name: name,
        build_id,
        sources,
    })
}

/// The temporary directory (TMPDIR, else /tmp) must be a directory before
/// QEMU is asked anything: QEMU writes its device tree, socket and RAM
/// dump there, and a missing one would surface as QEMU's own long error.
pub(super) fn check_tmpdir() -> Result<(), GuestError> {
    let t = std::env::temp_dir();
    let from = if std::env::var_os("TMPDIR").is_some() {
        "TMPDIR"
    } else {
        "the temporary directory"
    };
    match std::fs::metadata(&t) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(GuestError::TmpNotADirectory { from, dir: t }),
        Err(err) => Err(GuestError::Tmp { from, dir: t, err }),
    }
}
