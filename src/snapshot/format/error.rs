//! What can be wrong with a snapshot directory as trapscope reads and
//! writes it: the directory itself (`SnapshotError`, each naming the path at
//! fault), the manifest's text (`ManifestError`), its fields checked before
//! the RAM is read (`FieldError`), the RAM file (`RamError`), the vector
//! state (`VectorStateError`) and the hart state to resume from
//! (`ResumeError`). The words of an underlying error (I/O, JSON, zlib) are
//! part of each message, so no variant also names it as its `source`.

use std::path::PathBuf;

use super::constants::{
    FORMAT, INIT_SRC_DIR, MANIFEST, MAX_RATIO, OLDEST, RAM_MAX, RAM_MAX_MIB, VERSION,
};
use crate::cost::validate::VlenError;
use crate::input::ReadError;
use crate::output::WriteError;

/// Why a snapshot directory was not read (`Snapshot::load`) or written
/// (`Snapshot::write`).
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("{}: no such snapshot directory (make one with `trapscope snapshot`)", dir.display())]
    NoDir { dir: PathBuf },
    #[error("{}: cannot read the snapshot: {err}", dir.display())]
    Unreadable { dir: PathBuf, err: std::io::Error },
    #[error(
        "{}: a file, not a snapshot directory (a guest ELF goes in elf = \"...\"; make a snapshot with `trapscope snapshot`)",
        dir.display()
    )]
    NotADirectory { dir: PathBuf },
    #[error(
        "{}: not a snapshot directory: it has no {MANIFEST} (make one with `trapscope snapshot`)",
        dir.display()
    )]
    NoManifest { dir: PathBuf },
    /// The manifest or the RAM file (`path`) could not be read.
    #[error("{}: {err}", path.display())]
    Read { path: PathBuf, err: ReadError },
    /// The manifest at `path` is not a trapscope snapshot's of a version read.
    #[error("{}: {err}", path.display())]
    Manifest { path: PathBuf, err: ManifestError },
    /// A field of the manifest at `path` cannot be loaded.
    #[error("{}: {err}", path.display())]
    Field { path: PathBuf, err: FieldError },
    /// The RAM file is not the RAM the manifest declares.
    #[error(transparent)]
    Ram(#[from] RamError),
    #[error("{}: cannot create the directory: {err}", dir.display())]
    CreateDir { dir: PathBuf, err: std::io::Error },
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The manifest could not be written as JSON.
    #[error("{0}")]
    Json(serde_json::Error),
}

/// Why a manifest is not one this trapscope reads (`parse_manifest`),
/// without its path.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("not UTF-8 text: not a trapscope snapshot manifest")]
    NotUtf8,
    #[error("not a trapscope snapshot manifest (not JSON: {0})")]
    NotJson(serde_json::Error),
    #[error("format '{0}' is not a trapscope snapshot ('{FORMAT}')")]
    Format(String),
    #[error("not a trapscope snapshot manifest (no \"format\" field)")]
    NoFormat,
    /// A version outside `OLDEST..=VERSION`: `version` as the manifest has
    /// it (None: no field), `made_by` its `made_by` if a string.
    #[error(
        "snapshot format version {} (made by {}); this trapscope reads version {VERSION}{}: take the snapshot again",
        version.as_ref().map_or_else(|| "(none)".to_string(), ToString::to_string),
        made_by.as_deref().unwrap_or("an unknown version"),
        older_read()
    )]
    Version {
        version: Option<serde_json::Value>,
        made_by: Option<String>,
    },
    #[error("malformed snapshot manifest: {0}")]
    Malformed(serde_json::Error),
}

/// The older versions read besides `VERSION`, for the message.
fn older_read() -> String {
    match VERSION - OLDEST {
        0 => String::new(),
        1 => format!(" (and {OLDEST})"),
        _ => format!(" (and {OLDEST} to {})", VERSION - 1),
    }
}

/// A manifest field that cannot be loaded (`check::fields`), named.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("ram.size {size:#x} is not a whole number of pages (4 KiB each)")]
    RamPages { size: u64 },
    #[error(
        "ram.size {size:#x} is more than the {RAM_MAX_MIB} MiB ({RAM_MAX:#x} bytes) trapscope can load; take the snapshot again with --mem {RAM_MAX_MIB} or less"
    )]
    RamTooLarge { size: u64 },
    #[error("ram.base {base:#x} is not 4 KiB aligned")]
    RamBase { base: u64 },
    #[error(
        "ram.base {base:#x} + ram.size {size:#x} ends past the 56-bit physical address space (2^56)"
    )]
    RamEnd { base: u64, size: u64 },
    /// `init.sources[index].stored` is not a plain path inside `init-src/`.
    #[error(
        "init.sources[{index}].stored '{stored}' is not a path inside {}/ (relative, no '..', no hidden component)",
        INIT_SRC_DIR
    )]
    StoredPath { index: usize, stored: String },
    #[error("hart.vector.vlen {}: {}", .0.vlen, .0)]
    Vlen(VlenError),
}

/// Why the RAM file (`path`) is not the RAM the manifest declares (`size`
/// bytes): each names the file but `Interrupted` (Ctrl-C).
#[derive(Debug, thiserror::Error)]
pub enum RamError {
    #[error("{}: not a zlib stream; the manifest says {size:#x} bytes", path.display())]
    NotZlib { path: PathBuf, size: u64 },
    /// `len` bytes of zlib cannot inflate to `size`.
    #[error(
        "{}: {len} bytes of zlib cannot inflate to the manifest's {size:#x} bytes (deflate inflates at most {} times): a cut file or a wrong manifest",
        path.display(),
        MAX_RATIO
    )]
    CannotInflate {
        path: PathBuf,
        len: usize,
        size: u64,
    },
    #[error("interrupted")]
    Interrupted,
    /// The stream ends early.
    #[error(
        "{}: truncated (the zlib stream ends early): {err}; the manifest says {size:#x} bytes",
        path.display()
    )]
    Truncated {
        path: PathBuf,
        err: std::io::Error,
        size: u64,
    },
    /// Invalid deflate data, found while counting.
    #[error(
        "{}: damaged (a corrupt zlib stream): {err}; the manifest says {size:#x} bytes",
        path.display()
    )]
    Damaged {
        path: PathBuf,
        err: std::io::Error,
        size: u64,
    },
    #[error(
        "{}: holds more than the manifest's {size:#x} bytes (refused as it passed them, before holding them)",
        path.display()
    )]
    TooLong { path: PathBuf, size: u64 },
    #[error("{}: holds {got:#x} bytes, fewer than the manifest's {size:#x}", path.display())]
    TooShort { path: PathBuf, got: u64, size: u64 },
    #[error(
        "{}: digest {got:#x} differs from the manifest's {want:#x}: the file was changed or damaged",
        path.display()
    )]
    Digest { path: PathBuf, got: u64, want: u64 },
    #[error(
        "{}: the manifest's {size:#x} bytes of RAM do not fit in this machine's memory",
        path.display()
    )]
    NoMemory { path: PathBuf, size: u64 },
    /// Invalid deflate data, found while inflating into memory.
    #[error("{}: damaged (a corrupt zlib stream): {err}", path.display())]
    Corrupt { path: PathBuf, err: std::io::Error },
}

/// Vector state a V unit would never hold (`vstate::check`), naming the
/// field and the V spec's rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VectorStateError {
    #[error(
        "hart.vector.vtype = {vtype:#x} sets reserved bits (8 to 62 must be zero, V spec §3.4)"
    )]
    Reserved { vtype: u64 },
    #[error(
        "hart.vector.vtype = {vtype:#x} has vill set, so its other bits must be zero (V spec §3.4.4)"
    )]
    VillOthers { vtype: u64 },
    #[error("hart.vector.vl = {vl} while vtype.vill is set: vl must be 0 (V spec §3.4.4)")]
    VillVl { vl: u64 },
    #[error(
        "hart.vector.vtype = {vtype:#x} is a reserved or unsupported SEW/LMUL, yet vill is clear (a V unit sets vill for it, V spec §3.4.4)"
    )]
    Unsupported { vtype: u64 },
    #[error(
        "hart.vector.vl = {vl} is more than VLMAX = {vlmax} for vtype {vtype:#x} at VLEN {vlen} (V spec §3.4.2)"
    )]
    Vl {
        vl: u64,
        vlmax: u64,
        vtype: u64,
        vlen: u32,
    },
    #[error(
        "hart.vector.vstart = {vstart} is not below VLEN = {vlen}, past every element index (V spec §3.7)"
    )]
    Vstart { vstart: u64, vlen: u32 },
}

/// Why the manifest's hart state cannot be resumed from
/// (`Snapshot::resume_state`), naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    #[error("hart.privilege '{0}' is not U, S or M")]
    Privilege(String),
    #[error("hart.x has {0} registers, not 32")]
    XCount(usize),
    #[error("hart.f has {0} registers, not 32")]
    FCount(usize),
    #[error("hart.vector.v has {0} registers, not 32")]
    VCount(usize),
    #[error(transparent)]
    Vector(#[from] VectorStateError),
    #[error("hart.vector.v[{0}] is not hex bytes")]
    VHex(usize),
}
