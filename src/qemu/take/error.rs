//! What can go wrong taking a snapshot: the guest and the host checked
//! before QEMU starts (`GuestError`), the `-o DIR` (`OutError`), the run to
//! the stop falling short (`StopError`), and everything else, booting QEMU
//! and reading the stopped hart out of it (`TakeError`). The words of an
//! underlying error are part of each message, so no variant also names it
//! as its `source`.

use std::path::PathBuf;

use super::super::gdb::{CSR, GdbError, VECTOR};
use super::super::{QemuError, Version};
use super::config::RAM_BASE;
use crate::input::ReadError;
use crate::output::WriteError;
use crate::program::{ElfError, HeaderError};
use crate::snapshot::format::{RAM_MAX_MIB, SnapshotError};

/// Why `trapscope snapshot` failed (`take`, and `Booted`'s steps: `start`,
/// `run_to`, `run_to_tick`, `quiesce`, `hart`, `platform`, `ram`, `save`).
#[derive(Debug, thiserror::Error)]
pub enum TakeError {
    #[error("--at must be at least 1")]
    AtZero,
    #[error(
        "--mem {mib}: give the guest's RAM in MiB, from 1 to {RAM_MAX_MIB} (the most trapscope can load from a snapshot)"
    )]
    Mem { mib: u32 },
    #[error(transparent)]
    Guest(#[from] GuestError),
    #[error(transparent)]
    Out(#[from] OutError),
    #[error(transparent)]
    Qemu(#[from] QemuError),
    /// QEMU gives the guest extensions trapscope cannot run (`lacking`).
    #[error(
        "QEMU {version} gives the guest extensions trapscope cannot run: {} (riscv,isa = {isa}); pin the CPU with -cpu {cpu}",
        lacking.join(", ")
    )]
    Extensions {
        version: Version,
        lacking: Vec<String>,
        isa: String,
        cpu: String,
    },
    /// A scratch directory or file, or a snapshot file, not written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A file in a scratch directory made fresh for it exists.
    #[error("{}: exists in a fresh directory", path.display())]
    Exists { path: PathBuf },
    #[error("interrupted")]
    Interrupted,
    /// QEMU exited (`why`: its stderr's first line, or its status) before
    /// its gdbstub answered.
    #[error("QEMU ended before its gdbstub answered: {why}")]
    QemuEnded { why: String },
    #[error("QEMU's gdbstub at {}: {err}", socket.display())]
    GdbAt {
        socket: PathBuf,
        err: std::io::Error,
    },
    #[error(
        "QEMU's gdbstub did not answer at {} within {secs} s: {err}",
        socket.display()
    )]
    NoAnswer {
        socket: PathBuf,
        secs: u64,
        err: std::io::Error,
    },
    #[error(transparent)]
    Gdb(#[from] GdbError),
    /// The stub's register map has no `what` ("mie", "the privilege (priv)").
    #[error("the gdbstub does not show {what}")]
    NotShown { what: &'static str },
    /// The stub gives no CSR `num`, which `needs` ("counting the ecall
    /// needs", "a snapshot restores").
    #[error(
        "the gdbstub gives no {} (CSR {num:#x}), which {needs}",
        crate::isa::csr_name(*num).unwrap_or("CSR")
    )]
    NoCsr { num: u16, needs: &'static str },
    #[error(transparent)]
    Stop(Box<StopError>),
    /// The init's count of finished iterations is not `at - 1` at the stop.
    #[error(
        "the init's own iteration count (x9) is {x9} at the stop, but it should be {want} before the {} ecall: the stop is not where it was counted to be; take the snapshot again",
        ordinal(*at)
    )]
    Counter { x9: u64, want: u64, at: u64 },
    #[error(
        "the gdbstub gives {got} of the 32 FP registers (org.gnu.gdb.riscv.fpu), which a snapshot of a hart with F/D ({isa}) needs"
    )]
    FpCount { got: usize, isa: String },
    #[error(
        "the gdbstub gives no fcsr, which a snapshot of a hart with F needs (register {regnum}, the CSR base + 3: {err})"
    )]
    NoFcsr { regnum: u32, err: GdbError },
    #[error(
        "the gdbstub gives no {name} (neither {VECTOR} nor {CSR} lists it), which a snapshot of a hart with V needs"
    )]
    NoVectorCsr { name: &'static str },
    #[error("cannot read {name}, which a snapshot of a hart with V needs: {err}")]
    VectorCsr { name: &'static str, err: GdbError },
    #[error("the gdbstub's vlenb {vlenb} does not match its {vlen}-bit vector registers")]
    Vlenb { vlenb: u64, vlen: u32 },
    #[error("the gdbstub's vcsr {vcsr:#x} disagrees with its vxrm {vxrm} and vxsat {vxsat}")]
    Vcsr { vcsr: u64, vxrm: u64, vxsat: u64 },
    /// The monitor's `xp` said `out`, no value.
    #[error("QEMU's monitor gave no value for {addr:#x}: {}", out.trim())]
    Monitor { addr: u64, out: String },
    /// `pmemsave` wrote no file; `out` is what the monitor said.
    #[error("QEMU did not save RAM ({err}): {}", out.trim())]
    RamNotSaved { err: std::io::Error, out: String },
    #[error("QEMU saved {got} bytes of RAM, not {size}")]
    RamSize { got: usize, size: u64 },
    #[error(
        "TMPDIR: the scratch file {} is not UTF-8, which QEMU's monitor cannot be given: set TMPDIR to another directory",
        path.display()
    )]
    NotUtf8Path { path: PathBuf },
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    #[error(transparent)]
    InitSrc(#[from] super::super::init_src::StoreError),
}

impl From<StopError> for TakeError {
    fn from(e: StopError) -> TakeError {
        TakeError::Stop(Box::new(e))
    }
}

/// Why the guest did not stop where it was to (`run_to`, `run_to_tick`):
/// each with the marker (`marker`, at `at`), how far the count had got
/// where that is known, and `console`, the console's last lines as a
/// note (`; console tail: ...`).
#[derive(Debug, thiserror::Error)]
pub enum StopError {
    /// QEMU exited; `why` is its stderr's first line, or its status.
    #[error(
        "QEMU stopped ({why}) when the guest had reached {marker} ({at:#x}) {hits} of {n} times{console}"
    )]
    QemuStopped {
        why: String,
        marker: String,
        at: u64,
        hits: u64,
        n: u64,
        console: String,
    },
    /// Linux panicked; `said` is the init's own last word, `death` how
    /// PID 1 ended, where the console tells.
    #[error(
        "{}the kernel stopped with a panic{} when the guest had reached {marker} ({at:#x}) {hits} of {n} times{console}",
        said.as_ref().map(|l| format!("{l}; ")).unwrap_or_default(),
        death.as_ref().map(|d| format!(" ({d})")).unwrap_or_default()
    )]
    Panic {
        said: Option<String>,
        death: Option<String>,
        marker: String,
        at: u64,
        hits: u64,
        n: u64,
        console: String,
    },
    #[error("the guest did not reach {marker} ({at:#x}) within {secs} s{console}")]
    NotReached {
        marker: String,
        at: u64,
        secs: u64,
        console: String,
    },
    #[error("the loop stopped reaching {marker} ({err}){console}")]
    LoopStopped {
        marker: String,
        err: GdbError,
        console: String,
    },
    /// QEMU stopped at `pc`, not at the breakpoint at `at`.
    #[error("QEMU stopped at {pc:#x}, not at the marker {at:#x}{console}")]
    Elsewhere { pc: u64, at: u64, console: String },
    /// `tries` steps over the marker retired nothing.
    #[error("{tries} steps over {marker} ({at:#x}) in a row retired nothing{console}")]
    Stayed {
        tries: u32,
        marker: String,
        at: u64,
        console: String,
    },
    /// The step over the marker ended elsewhere (`what`: where, and the
    /// trap CSRs there).
    #[error("the step over {marker} ({at:#x}) did not take its trap: {what}{console}")]
    NoTrap {
        marker: String,
        at: u64,
        what: String,
        console: String,
    },
}

/// Why the guest, or the host's temporary directory, will not do for a
/// snapshot (checked before QEMU starts).
#[derive(Debug, thiserror::Error)]
pub enum GuestError {
    #[error("{}: {err}", path.display())]
    Read { path: PathBuf, err: ReadError },
    #[error(
        "{}: an ELF file, not a kernel Image: give arch/riscv/boot/Image as --kernel and the ELF as --vmlinux",
        path.display()
    )]
    ElfNotImage { path: PathBuf },
    #[error("{}: not a RISC-V Linux Image (no RISCV/RSC magic at 0x30)", path.display())]
    NotImage { path: PathBuf },
    #[error("{}: {err}", path.display())]
    VmlinuxHeader { path: PathBuf, err: HeaderError },
    #[error(
        "{}: has no GNU build id (.note.gnu.build-id), which ties a snapshot to its kernel",
        path.display()
    )]
    NoBuildId { path: PathBuf },
    /// The vmlinux's build id `id` is nowhere in the Image.
    #[error(
        "{}: build id {id} of {} is not in this Image: the vmlinux does not match the Image",
        image.display(),
        vmlinux.display()
    )]
    Mismatch {
        image: PathBuf,
        vmlinux: PathBuf,
        id: String,
    },
    #[error(transparent)]
    Elf(#[from] ElfError),
    /// A bare-metal ELF whose entry is not RAM's base.
    #[error(
        "{}: its entry is {entry:#x}, but QEMU's -bios none starts a bare-metal guest at RAM's base, {RAM_BASE:#x}: link its _start there",
        path.display()
    )]
    Entry { path: PathBuf, entry: u64 },
    #[error("{}: has no symbol '{name}'", path.display())]
    NoSymbol { path: PathBuf, name: String },
    /// The temporary directory (`from`: "TMPDIR", "the temporary
    /// directory") is not a directory.
    #[error(
        "{from} {}: not a directory (trapscope snapshot keeps QEMU's device tree, socket and RAM dump there): set TMPDIR to a directory",
        dir.display()
    )]
    TmpNotADirectory { from: &'static str, dir: PathBuf },
    #[error(
        "{from} {}: {err} (trapscope snapshot keeps QEMU's device tree, socket and RAM dump there): create it or set TMPDIR to a directory",
        dir.display()
    )]
    Tmp {
        from: &'static str,
        dir: PathBuf,
        err: std::io::Error,
    },
}

/// Why the snapshot cannot be written to `-o DIR` (`out`), checked before
/// QEMU boots, or put in place after.
#[derive(Debug, thiserror::Error)]
pub enum OutError {
    #[error("-o {}: is a symbolic link: give the directory itself", out.display())]
    Link { out: PathBuf },
    #[error("-o {}: exists and is not a directory", out.display())]
    NotADirectory { out: PathBuf },
    /// Not the user's own directory (`output::check_own_dir`).
    #[error("-o {0}")]
    NotOwn(WriteError),
    #[error("-o {}: cannot read the directory: {err}", out.display())]
    Unreadable { out: PathBuf, err: std::io::Error },
    #[error(
        "-o {}: exists and holds files that are not a snapshot's: give a new or empty directory",
        out.display()
    )]
    Foreign { out: PathBuf },
    /// A probe file could not be created in it.
    #[error("-o {}: cannot write into the directory: {err}", out.display())]
    Unwritable { out: PathBuf, err: WriteError },
    /// The probe file's name (`probe`) was taken.
    #[error(
        "-o {}: cannot write into the directory: {} exists",
        out.display(),
        probe.display()
    )]
    ProbeExists { out: PathBuf, probe: PathBuf },
    #[error("-o {}: cannot create the directory: {err}", out.display())]
    Create { out: PathBuf, err: std::io::Error },
    #[error("-o {}: cannot put the snapshot in place: {err}", out.display())]
    Place { out: PathBuf, err: std::io::Error },
}

pub(super) fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
