//! Why `trapscope verify` could not compare a snapshot with QEMU
//! (`VerifyError`), and how trapscope's run from the snapshot ended when it
//! did not reach the stop (`RunEnded`, which the report shows rather than
//! an error).

use std::path::PathBuf;

use crate::input::ReadError;
use crate::machine::LoadError;
use crate::program::ElfError;
use crate::qemu::take::{LINUX_APPEND, TakeError};
use crate::session::Refused;
use crate::snapshot::format::SnapshotError;
use crate::trace::GuestFault;

/// Why a snapshot could not be checked against QEMU (`verify`): bad input,
/// QEMU missing, a kernel that does not boot. The words of an underlying
/// error are part of each message, so no variant also names it as its
/// `source`.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("--iterations must be at least 1")]
    NoIterations,
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    /// Taken (by `made_by`) before snapshots booted QEMU on a counted clock.
    #[error(
        "{}: taken by {made_by} before snapshots booted QEMU on a counted clock (-icount), so no second boot reaches its state bit for bit: take it again with this trapscope's `snapshot`",
        dir.display()
    )]
    NotReproducible { dir: PathBuf, made_by: String },
    #[error(
        "{}: the snapshot keeps interrupts enabled (mie = {mie:#x}): QEMU would take them on its clock and trapscope on the model's, at other instructions, so their states cannot be compared",
        dir.display()
    )]
    InterruptsOn { dir: PathBuf, mie: u64 },
    #[error("--core {core}: has no V 1.0 unit, but the snapshot has vector state (VLEN {vlen})")]
    NoVectorUnit { core: String, vlen: u32 },
    /// The core's VLEN (`has`) is not the snapshot's.
    #[error("--core {core}: VLEN {has}, but the snapshot was taken at VLEN {vlen}")]
    CoreVlen { core: String, has: u32, vlen: u32 },
    /// The snapshot's `what` ("kernel Image", "vmlinux", "guest ELF") is
    /// not at `path`; `option` names it instead.
    #[error(
        "{}: the snapshot's {what} is not there ({err}); give its path with {option}",
        path.display()
    )]
    Missing {
        path: PathBuf,
        what: &'static str,
        option: &'static str,
        err: std::io::Error,
    },
    #[error(transparent)]
    Elf(#[from] ElfError),
    /// No symbol at `addr`, the snapshot's `what` ("loop top", ...).
    #[error(
        "{}: no symbol at {addr:#x}, the snapshot's {what}: not the ELF the snapshot was taken of",
        path.display()
    )]
    NoMarker {
        path: PathBuf,
        addr: u64,
        what: &'static str,
    },
    #[error("ram.size {size:#x} is not a whole number of MiB, which QEMU's -m needs")]
    RamMib { size: u64 },
    #[error("kernel.append '{append}' does not start with trapscope's '{LINUX_APPEND}'")]
    Append { append: String },
    #[error("--vmlinux: this snapshot is of a bare-metal ELF, not Linux")]
    NotLinux,
    #[error("{}: {err}", path.display())]
    ReadVmlinux { path: PathBuf, err: ReadError },
    /// The vmlinux's build id (`have`, None: none) is not the snapshot's.
    #[error(
        "{}: build id {}, but the snapshot's kernel has {want}: the kernel was rebuilt since the snapshot (give --kernel and --vmlinux of that build)",
        path.display(),
        have.as_deref().unwrap_or("(none)")
    )]
    Rebuilt {
        path: PathBuf,
        have: Option<String>,
        want: String,
    },
    #[error(transparent)]
    Take(#[from] TakeError),
    /// The marker `symbol` is at `here` in the booted guest, at `was` in
    /// the snapshot.
    #[error(
        "the marker {symbol} is at {here:#x} in this guest, but at {was:#x} in the snapshot: the init or ELF is not the snapshot's"
    )]
    Marker { symbol: String, here: u64, was: u64 },
    /// The snapshot as a variant.
    #[error(transparent)]
    Variant(#[from] crate::snapshot::variant::LoadError),
    #[error(transparent)]
    Machine(#[from] LoadError),
    #[error(transparent)]
    Resume(#[from] Refused),
    #[error("interrupted")]
    Interrupted,
    #[error("trapscope cannot read RAM at {addr:#x}")]
    NoRam { addr: u64 },
    /// `side` ("QEMU", "trapscope") gave `got` bytes of RAM, not `want`.
    #[error("{side} gave {got} bytes of RAM at {at:#x}, not {want}")]
    RamLength {
        side: &'static str,
        got: usize,
        at: u64,
        want: usize,
    },
}

/// How trapscope's run from the snapshot ended when it did not reach the
/// stop (`at`: the place, as `Program::place` names it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunEnded {
    #[error("the guest exited with code {code} at {at}")]
    Exited { code: u64, at: String },
    #[error("it did not get there within {budget} instructions; it was at {at}")]
    Budget { budget: u64, at: String },
    #[error("{0}")]
    Fault(GuestFault),
    /// `outcome` as the machine's `Outcome` debug-prints it.
    #[error("the run stopped ({outcome}) at {at}")]
    Stopped { outcome: String, at: String },
}
