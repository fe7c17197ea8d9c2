//! A scenario variant made from a snapshot: the RAM as the guest's memory,
//! the vmlinux's and the init's symbols and lines (the init's sources from
//! the copies stored with it, `init_src.rs`), and the hart state to resume
//! from.

use std::path::{Path, PathBuf};

use object::Object;

use super::format::{ResumeError, Snapshot, SnapshotError};
use crate::input::ReadError;
use crate::input::source_policy::{self, Origin};
use crate::machine::{Program, ResumeState, Segment};

/// `--kernel-src`: where kernel trees are, for every snapshot loaded after.
static KERNEL_SRC: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Sets `--kernel-src` (the first call wins; the CLI makes one).
pub fn set_kernel_src(dir: &Path) {
    let _ = KERNEL_SRC.set(dir.to_path_buf());
    source_policy::allow_root(dir, Origin::CommandLine);
}

/// What a variant needs from its snapshot.
pub struct Loaded {
    pub program: Program,
    pub resume: ResumeState,
}

/// Why a snapshot variant was refused (`load`, `from_snapshot`): the
/// snapshot directory, what its hart ran, the vmlinux, or the init.
/// `in_vmlinux` says whether the fault lies with the vmlinux the scenario
/// names, so the error can point at it.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    /// The hart had extensions trapscope cannot run (`lacking`, as
    /// `qemu.isa` in the manifest at `dir` names them).
    #[error(
        "{}: the snapshot's hart had extensions trapscope cannot run: {} (qemu.isa {isa}); take it again with `trapscope snapshot`, which pins the QEMU CPU to what trapscope runs (-cpu rv64,...,{},...)",
        dir.display(),
        lacking.join(", "),
        lacking.iter().map(|e| format!("{e}=off")).collect::<Vec<_>>().join(",")
    )]
    Extensions {
        dir: PathBuf,
        lacking: Vec<String>,
        isa: String,
    },
    /// satp selects a mode other than Bare or Sv39.
    #[error(
        "{}: satp selects {} paging (satp.MODE = {mode}); trapscope translates Sv39 only: boot the kernel with no4lvl (`trapscope snapshot` adds it) and take the snapshot again",
        dir.display(),
        paging_name(*mode)
    )]
    Paging { dir: PathBuf, mode: u64 },
    /// The hart state in the manifest at `manifest` cannot be resumed from.
    #[error("{}: {err}", manifest.display())]
    Resume { manifest: PathBuf, err: ResumeError },
    /// The vmlinux the variant names.
    #[error(transparent)]
    Vmlinux(KernelError),
    /// The vmlinux the snapshot recorded (another machine's, perhaps).
    #[error("{0} (the vmlinux this snapshot recorded; give the variant vmlinux = \"...\")")]
    RecordedVmlinux(KernelError),
    /// The snapshot's init could not be read as an ELF (the machine's
    /// `LoadError::Elf`, which holds the ELF reader's error: snapshot/ does
    /// not name the program room).
    #[error(transparent)]
    Init(crate::machine::LoadError),
}

impl LoadError {
    /// Whether the vmlinux the scenario names is at fault.
    pub fn in_vmlinux(&self) -> bool {
        matches!(self, LoadError::Vmlinux(_))
    }
}

/// Why a vmlinux was not read for its symbols (`kernel_symbols`).
#[derive(Debug, thiserror::Error)]
pub enum KernelError {
    #[error("{}: {err}", path.display())]
    Read { path: PathBuf, err: ReadError },
    /// Its GNU build id (`have`, None: none) is not the snapshot's.
    #[error(
        "{}: build id {} is not the snapshot's {want}: this vmlinux is not the kernel that was snapshotted",
        path.display(),
        have.as_deref().unwrap_or("(none)")
    )]
    BuildId {
        path: PathBuf,
        have: Option<String>,
        want: String,
    },
    /// Not an ELF read for its symbols (`LoadError::Elf`, as `Init`).
    #[error(transparent)]
    Elf(crate::machine::LoadError),
}

/// A satp.MODE other than Bare or Sv39, as the message names it.
fn paging_name(mode: u64) -> String {
    match mode {
        9 => "Sv48".to_string(),
        10 => "Sv57".to_string(),
        n => format!("mode {n}"),
    }
}

/// Refuses a snapshot whose hart had extensions trapscope cannot run, from
/// the `riscv,isa` QEMU's device tree gave (`qemu.isa`, recorded by
/// `trapscope snapshot`): the kernel may have used them (docs/decisions.md D12
/// pins the CPU for that reason).
fn check_isa(snap: &Snapshot) -> Result<(), LoadError> {
    let m = &snap.manifest;
    let isa = super::fdt::CpuIsa {
        isa: m.qemu.isa.clone(),
        extensions: None,
        mmu_type: None,
    };
    let lacking = super::isa::unsupported_extensions(&isa, m.hart.vector.is_some());
    if lacking.is_empty() {
        return Ok(());
    }
    Err(LoadError::Extensions {
        dir: snap.dir.clone(),
        lacking,
        isa: m.qemu.isa.clone(),
    })
}

/// The GNU build id of an ELF (its bytes), if it has one.
pub fn build_id_bytes(bytes: &[u8]) -> Option<Vec<u8>> {
    let file = object::File::parse(bytes).ok()?;
    Some(file.build_id().ok()??.to_vec())
}

/// The GNU build id of an ELF (hex), if it has one.
pub fn build_id(bytes: &[u8]) -> Option<String> {
    build_id_bytes(bytes).map(|id| super::format::to_hex(&id))
}

/// Refuses a snapshot whose satp selects a translation mode other than Bare
/// or Sv39 (priv spec §4.1.11, satp.MODE: 8 = Sv39, 9 = Sv48, 10 = Sv57):
/// trapscope walks Sv39 tables only (machine/mmu.rs), and the emulator
/// would take an Sv48 satp without a word.
fn check_paging(snap: &Snapshot) -> Result<(), LoadError> {
    let satp = snap.manifest.hart.csrs.iter().find(|c| c.csr.0 == 0x180);
    let Some(mode) = satp.map(|c| c.value.0 >> 60) else {
        return Ok(());
    };
    if mode == 0 || mode == 8 {
        return Ok(());
    }
    Err(LoadError::Paging {
        dir: snap.dir.clone(),
        mode,
    })
}

/// Reads a vmlinux for its symbols and lines, refusing one whose build id
/// is not the snapshot's.
fn kernel_symbols(path: &Path, expect: Option<&str>) -> Result<Program, KernelError> {
    let bytes = crate::input::read_regular(path, "vmlinux", crate::input::KERNEL_IMAGE_MAX)
        .map_err(|err| KernelError::Read {
            path: path.to_path_buf(),
            err,
        })?;
    if let Some(want) = expect {
        let have = build_id(&bytes);
        if have.as_deref() != Some(want) {
            return Err(KernelError::BuildId {
                path: path.to_path_buf(),
                have,
                want: want.to_string(),
            });
        }
    }
    Program::parse_symbols(path, &bytes).map_err(|e| KernelError::Elf(e.into()))
}

/// Loads `dir` as a variant. `vmlinux` overrides the path the snapshot
/// recorded; `kernel_src` is where the kernel tree is, if not where DWARF says.
pub fn load(
    dir: &Path,
    vmlinux: Option<&Path>,
    kernel_src: Option<&Path>,
) -> Result<Loaded, LoadError> {
    let snap = Snapshot::load(dir)?;
    from_snapshot(snap, vmlinux, kernel_src)
}

/// `load` of a snapshot already read (`trapscope verify` keeps its
/// manifest); its RAM becomes the program's one segment.
pub fn from_snapshot(
    snap: Snapshot,
    vmlinux: Option<&Path>,
    kernel_src: Option<&Path>,
) -> Result<Loaded, LoadError> {
    let dir = snap.dir.clone();
    let dir = dir.as_path();
    check_isa(&snap)?;
    check_paging(&snap)?;
    let resume = snap.resume_state().map_err(|err| LoadError::Resume {
        manifest: dir.join(super::format::MANIFEST),
        err,
    })?;
    let m = &snap.manifest;
    let named = vmlinux.is_some();
    let vmlinux: Option<PathBuf> = vmlinux
        .map(Path::to_path_buf)
        .or_else(|| m.kernel.vmlinux.as_ref().map(PathBuf::from));
    let mut parts = Vec::new();
    if let Some(v) = &vmlinux {
        let mut k = kernel_symbols(v, m.kernel.build_id.as_deref()).map_err(|e| {
            if named {
                LoadError::Vmlinux(e)
            } else {
                LoadError::RecordedVmlinux(e)
            }
        })?;
        // The tree the vmlinux was built in holds it, as the reviewer's
        // recipe builds; a variant's kernel_src is a root too. Neither may
        // be `/`, $HOME or a system directory (source_policy).
        source_policy::allow_dir_of(v, Origin::Scenario);
        if let Some(src) = kernel_src {
            source_policy::allow_root(src, Origin::Scenario);
        }
        if let Some(src) = kernel_src.or(KERNEL_SRC.get().map(PathBuf::as_path)) {
            k.src_roots.insert(0, src.to_path_buf());
        }
        parts.push(k);
    }
    let init = snap.init_path();
    let mut user = Program::load(&init).map_err(|e| LoadError::Init(e.into()))?;
    user.segments.clear();
    // The init's sources stored with the snapshot, read first wherever the
    // snapshot is (a root like any other: the policy still checks each).
    user.copies = snap.init_copies(&user.files);
    if user.copies.iter().any(Option::is_some) {
        source_policy::allow_root(&dir.join(super::format::INIT_SRC_DIR), Origin::Scenario);
    }
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
