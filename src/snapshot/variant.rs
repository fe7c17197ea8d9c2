//! A scenario variant made from a snapshot: the RAM as the guest's memory,
//! the vmlinux's and the init's symbols and lines, and the hart state to
//! resume from.

use std::path::{Path, PathBuf};

use object::Object;

use super::format::Snapshot;
use crate::machine::{Program, ResumeState, Segment};

/// `--kernel-src`: where kernel trees are, for every snapshot loaded after.
static KERNEL_SRC: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Sets `--kernel-src` (the first call wins; the CLI makes one).
pub fn set_kernel_src(dir: &Path) {
    let _ = KERNEL_SRC.set(dir.to_path_buf());
}

/// What a variant needs from its snapshot.
pub struct Loaded {
    pub program: Program,
    pub resume: ResumeState,
}

/// The GNU build id of an ELF (hex), if it has one.
pub fn build_id(bytes: &[u8]) -> Option<String> {
    let file = object::File::parse(bytes).ok()?;
    let id = file.build_id().ok()??;
    Some(super::format::to_hex(id))
}

/// Reads a vmlinux for its symbols and lines, refusing one whose build id
/// is not the snapshot's.
fn kernel_symbols(path: &Path, expect: Option<&str>) -> Result<Program, String> {
    let bytes = crate::input::read_regular(path, "vmlinux", crate::input::KERNEL_IMAGE_MAX)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(want) = expect {
        let have = build_id(&bytes);
        if have.as_deref() != Some(want) {
            return Err(format!(
                "{}: build id {} is not the snapshot's {want}: this vmlinux is not the kernel that was snapshotted",
                path.display(),
                have.as_deref().unwrap_or("(none)")
            ));
        }
    }
    Program::parse_symbols(path, &bytes).map_err(|e| e.to_string())
}

/// Loads `dir` as a variant. `vmlinux` overrides the path the snapshot
/// recorded; `kernel_src` is where the kernel tree is, if not where DWARF says.
pub fn load(
    dir: &Path,
    vmlinux: Option<&Path>,
    kernel_src: Option<&Path>,
) -> Result<Loaded, String> {
    let snap = Snapshot::load(dir)?;
    let resume = snap
        .resume_state()
        .map_err(|e| format!("{}: {e}", dir.join(super::format::MANIFEST).display()))?;
    let m = &snap.manifest;
    let isa = crate::snapshot::fdt::CpuIsa {
        isa: m.qemu.isa.clone(),
        extensions: None,
        mmu_type: None,
    };
    let lacking = crate::snapshot::qemu::unsupported_extensions(&isa, m.hart.vector.is_some());
    if !lacking.is_empty() {
        return Err(format!(
            "{}: the snapshotted CPU had extensions trapscope cannot run: {} (riscv,isa = {}); take it again with `trapscope snapshot`, which pins QEMU's CPU to what trapscope runs",
            dir.display(),
            lacking.join(", "),
            m.qemu.isa
        ));
    }
    let vmlinux: Option<PathBuf> = vmlinux
        .map(Path::to_path_buf)
        .or_else(|| m.kernel.vmlinux.as_ref().map(PathBuf::from));
    let mut parts = Vec::new();
    if let Some(v) = &vmlinux {
        let mut k = kernel_symbols(v, m.kernel.build_id.as_deref())?;
        if let Some(src) = kernel_src.or(KERNEL_SRC.get().map(PathBuf::as_path)) {
            k.src_roots.insert(0, src.to_path_buf());
        }
        parts.push(k);
    }
    let init = snap.init_path();
    let mut user = Program::load(&init).map_err(|e| e.to_string())?;
    user.segments.clear();
    parts.push(user);
    let ram = Segment {
        index: 0,
        vaddr: m.ram.base.0,
        memsz: m.ram.size.0,
        data: snap.ram,
        exec: true,
        write: true,
    };
    let program = Program::from_memory(dir, m.hart.pc.0, vec![ram], parts);
    Ok(Loaded { program, resume })
}
