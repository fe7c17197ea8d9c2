//! What can go wrong finding and running QEMU itself (`QemuError`): the
//! binary, its version, the `-cpu` value, the device tree it dumps, and
//! starting it; and running a short QEMU command to its end
//! (`ProcessError`). The words of an underlying error are part of each
//! message, so no variant also names it as its `source`.

use std::path::PathBuf;

use super::{BINARY, ENV, OLDEST, VLEN_RANGE, Version};
use crate::output::WriteError;
use crate::snapshot::fdt::FdtError;

/// Why QEMU could not be found, asked its version, given a CPU, or
/// started (`find_binary`, `version`, `cpu_arg`, `guest_isa`,
/// `Qemu::spawn`).
#[derive(Debug, thiserror::Error)]
pub enum QemuError {
    /// `$TRAPSCOPE_QEMU` names no executable file.
    #[error(
        "{ENV}={} is not an executable file: point it at {BINARY}, or unset it and install {BINARY} with 'apt-get install qemu-system-misc'",
        value.display()
    )]
    NotExecutable { value: PathBuf },
    #[error(
        "{BINARY} not found: install it with 'apt-get install qemu-system-misc' (or set {ENV})"
    )]
    NotFound,
    /// `line`, the first line of `--version`'s output, holds no version.
    #[error(
        "cannot read a QEMU version from {:?}",
        crate::escape::escape_line(line)
    )]
    BadVersion { line: String },
    /// `BadVersion`, of `bin`'s `--version`.
    #[error(
        "{}: cannot read a QEMU version from {:?}",
        bin.display(),
        crate::escape::escape_line(line)
    )]
    VersionText { bin: PathBuf, line: String },
    #[error("{} --version: {err}", bin.display())]
    VersionRun { bin: PathBuf, err: ProcessError },
    /// `--version` failed; `stderr` is the first line it wrote there.
    #[error("{} --version failed: {stderr}", bin.display())]
    VersionFailed { bin: PathBuf, stderr: String },
    #[error("QEMU {version} is too old for trapscope snapshot: it needs QEMU {OLDEST} or newer")]
    TooOld { version: Version },
    #[error(
        "VLEN {vlen} cannot be given to QEMU: it takes a power of two from {} to {}",
        VLEN_RANGE.start(),
        VLEN_RANGE.end()
    )]
    Vlen { vlen: u32 },
    /// No scratch directory for the device tree.
    #[error(transparent)]
    Scratch(#[from] WriteError),
    #[error("{} (dumping the device tree): {err}", bin.display())]
    DumpRun { bin: PathBuf, err: ProcessError },
    /// QEMU refused the CPU; `stderr` is the first line it wrote there.
    #[error("{} refused -cpu {cpu}: {stderr}", bin.display())]
    RefusedCpu {
        bin: PathBuf,
        cpu: String,
        stderr: String,
    },
    /// QEMU warned that it changed the CPU (`warning`, its line).
    #[error("{} changed -cpu {cpu}: {warning}", bin.display())]
    ChangedCpu {
        bin: PathBuf,
        cpu: String,
        warning: String,
    },
    #[error("{} wrote no device tree to {}: {err}", bin.display(), file.display())]
    NoDeviceTree {
        bin: PathBuf,
        file: PathBuf,
        err: std::io::Error,
    },
    #[error("device tree from {}: {err}", bin.display())]
    DeviceTree { bin: PathBuf, err: FdtError },
    #[error("cannot start {}: {err}", bin.display())]
    Spawn { bin: PathBuf, err: std::io::Error },
}

/// Why a short QEMU command did not run to its end (`output_within`).
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("cannot start: {0}")]
    Start(std::io::Error),
    /// Still running after `secs`, and killed.
    #[error("still running after {secs} s, killed")]
    Killed { secs: u64 },
    #[error("cannot wait for it: {0}")]
    Wait(std::io::Error),
}
