//! The snapshot directory: what `trapscope snapshot` writes and a scenario's
//! `snapshot = "DIR"` reads.
//!
//! ```text
//! DIR/snapshot.json   the manifest (this file's `Manifest`), numbers as "0x…" strings
//! DIR/ram.zlib        guest RAM from `ram.base`, `ram.size` bytes, zlib-compressed
//! DIR/init.elf        the /init the kernel ran (its symbols name the loop)
//! DIR/console.log     what the kernel printed until the snapshot
//! DIR/init-src/…      the init's sources, as its line table names them
//!                     (`init.sources` maps each name to its copy; init_src.rs)
//! ```
//!
//! The manifest names its format and version; a file of another format or
//! version is refused, naming what it is (version 1, from before the init's
//! sources were stored, is read as version 2 without them). RAM is checked against its size
//! and an FNV-1a digest, so a truncated or altered dump is refused too.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::machine::{ResumeState, VectorState};
use crate::trace::Priv;

/// The timebase of QEMU virt's ACLINT, which its device tree gives the
/// guest as /cpus `timebase-frequency` (10000000, read back with fdtget
/// from `-M virt,dumpdtb` of QEMU 7.2): every snapshot's kernel was told it.
pub const QEMU_VIRT_TIMEBASE_HZ: u64 = 10_000_000;

/// `s` as a path under `init-src/`: relative, every component a plain name
/// that is not hidden (None: not such a path).
pub fn stored_path(s: &str) -> Option<PathBuf> {
    let p = Path::new(s);
    let plain = p.components().all(|c| match c {
        Component::Normal(n) => n.as_encoded_bytes().first() != Some(&b'.'),
        _ => false,
    });
    (plain && p.components().next().is_some()).then(|| p.to_path_buf())
}

mod check;
mod constants;
mod error;
mod ram;
pub use constants::{
    CONSOLE_FILE, FORMAT, INIT_FILE, INIT_SRC_DIR, MANIFEST, OLDEST, RAM_FILE, RAM_MAX,
    RAM_MAX_MIB, VERSION,
};
pub use error::{
    FieldError, ManifestError, RamError, ResumeError, SnapshotError, VectorStateError,
};

/// A u64 written as a "0x…" string (JSON numbers lose bits past 2^53 in
/// many readers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hex(pub u64);

impl Serialize for Hex {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:#x}", self.0))
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let s = String::deserialize(d)?;
        let digits = s
            .strip_prefix("0x")
            .ok_or_else(|| serde::de::Error::custom(format!("'{s}' is not a 0x… number")))?;
        u64::from_str_radix(digits, 16)
            .map(Hex)
            .map_err(|_| serde::de::Error::custom(format!("'{s}' is not a 0x… number")))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    /// "trapscope X.Y.Z", for the reader's information.
    pub made_by: String,
    pub ram: Ram,
    pub hart: HartDump,
    pub platform: PlatformDump,
    pub kernel: Kernel,
    pub init: Init,
    pub qemu: QemuInfo,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Ram {
    pub base: Hex,
    pub size: Hex,
    /// FNV-1a (64-bit) of the uncompressed bytes.
    pub fnv1a64: Hex,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Csr {
    pub csr: Hex,
    pub name: String,
    pub value: Hex,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HartDump {
    pub pc: Hex,
    /// "U", "S" or "M".
    pub privilege: String,
    /// x0..x31.
    pub x: Vec<Hex>,
    /// f0..f31 (raw 64-bit), when the hart has F/D.
    #[serde(default)]
    pub f: Vec<Hex>,
    pub fcsr: Option<Hex>,
    /// Every CSR the gdbstub gave, by number; those trapscope does not hold
    /// (PMP, counters, envcfg) are kept for the record.
    pub csrs: Vec<Csr>,
    pub vector: Option<VectorDump>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VectorDump {
    pub vlen: u32,
    /// v0..v31 as little-endian hex bytes.
    pub v: Vec<String>,
    pub vl: Hex,
    pub vtype: Hex,
    pub vstart: Hex,
    pub vcsr: Hex,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlatformDump {
    /// The CLINT's mtime when QEMU stopped: trapscope's timer goes on from
    /// it, by the model's cycles from the snapshot.
    pub mtime: Hex,
    pub mtimecmp: Hex,
    pub msip: Hex,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Kernel {
    /// The files given to `trapscope snapshot`, as given.
    pub image: String,
    pub vmlinux: Option<String>,
    /// The vmlinux's GNU build id (hex), checked against a scenario's vmlinux.
    pub build_id: Option<String>,
    /// The kernel command line QEMU was given: trapscope's words, then
    /// `--append`'s (snapshots taken before recorded trapscope's alone).
    pub append: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Init {
    pub name: String,
    /// The loop's ecall (`init_ecall`) and its top (`init_loop`).
    pub ecall: Hex,
    pub loop_top: Hex,
    /// The snapshot stopped before the `at`-th execution of the ecall.
    pub at: u64,
    /// The init's own count of the iterations it had finished at the stop
    /// (x9, where trapscope's inits keep it): `at - 1`, checked when the
    /// snapshot is taken. Absent for a bare ELF guest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<u64>,
    /// A tick snapshot (`--init tick`): `at` counts the supervisor timer
    /// interrupts taken at `ecall` (the init's spin), and the snapshot
    /// stopped at the kernel's handler for the `at`-th, with the interrupt
    /// enables and the armed timer kept (other snapshots mask them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tick_handler: Option<Hex>,
    /// The init's sources stored in `init-src/`, by the name its line
    /// table gives them (none in version 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<InitSource>,
}

/// One source file of the init, stored with the snapshot.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct InitSource {
    /// As the init's DWARF line table names it (`Program::files`).
    pub name: String,
    /// The copy's path under `init-src/`: relative, without `..` or a
    /// hidden component.
    pub stored: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QemuInfo {
    pub version: String,
    pub cpu: String,
    /// The guest device tree's riscv,isa.
    pub isa: String,
    pub command_line: String,
    /// QEMU ran on instruction-counted time with a fixed seed
    /// (`take::REPRODUCIBLE`, docs/decisions.md D14): booting the same
    /// files again reaches the same state bit for bit, which `trapscope
    /// verify` checks. Absent (false) in snapshots taken before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reproducible: bool,
}

/// A snapshot read back: the manifest and the RAM.
pub struct Snapshot {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub ram: Vec<u8>,
}

pub use ram::fnv1a64;

fn priv_of(s: &str) -> Option<Priv> {
    Some(match s {
        "U" => Priv::U,
        "S" => Priv::S,
        "M" => Priv::M,
        _ => return None,
    })
}

fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl Snapshot {
    /// Writes the manifest and the compressed RAM into `dir` (created; not
    /// a link, and the user's), each file under a new name renamed over
    /// the old one (`output`), so a link in its place is replaced, never
    /// written through.
    pub fn write(dir: &Path, manifest: &Manifest, ram: &[u8]) -> Result<(), SnapshotError> {
        if std::fs::symlink_metadata(dir).is_err() {
            std::fs::create_dir_all(dir).map_err(|err| SnapshotError::CreateDir {
                dir: dir.to_path_buf(),
                err,
            })?;
        }
        crate::output::check_own_dir(dir)?;
        crate::output::replace_with(&dir.join(RAM_FILE), &mut |f| {
            let mut z = flate2::write::ZlibEncoder::new(
                std::io::BufWriter::new(f),
                flate2::Compression::fast(),
            );
            // In slices, so that Ctrl-C ends a dump of 128 MiB (seconds in
            // a debug build) at once rather than after it.
            for part in ram.chunks(1 << 20) {
                if crate::machine::sigint::requested() {
                    return Err(std::io::Error::other("interrupted"));
                }
                z.write_all(part)?;
            }
            z.finish().and_then(|mut w| w.flush())
        })?;
        let json = serde_json::to_string_pretty(manifest).map_err(SnapshotError::Json)?;
        Ok(crate::output::replace(
            &dir.join(MANIFEST),
            (json + "\n").as_bytes(),
        )?)
    }

    /// Reads and checks a snapshot directory.
    pub fn load(dir: &Path) -> Result<Snapshot, SnapshotError> {
        let mpath = dir.join(MANIFEST);
        let d = || dir.to_path_buf();
        match std::fs::metadata(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(SnapshotError::NoDir { dir: d() });
            }
            Err(err) => return Err(SnapshotError::Unreadable { dir: d(), err }),
            Ok(m) if !m.is_dir() => return Err(SnapshotError::NotADirectory { dir: d() }),
            Ok(_) => {}
        }
        if std::fs::symlink_metadata(&mpath).is_err() {
            return Err(SnapshotError::NoManifest { dir: d() });
        }
        let read = |path: &Path, what, cap| {
            crate::input::read_regular(path, what, cap).map_err(|err| SnapshotError::Read {
                path: path.to_path_buf(),
                err,
            })
        };
        let bytes = read(&mpath, "snapshot manifest", crate::input::TEXT_MAX)?;
        let manifest = parse_manifest(&bytes).map_err(|err| SnapshotError::Manifest {
            path: mpath.clone(),
            err,
        })?;
        check::fields(&manifest).map_err(|err| SnapshotError::Field {
            path: mpath.clone(),
            err,
        })?;
        let rpath = dir.join(RAM_FILE);
        let z = read(&rpath, "snapshot RAM", crate::input::KERNEL_IMAGE_MAX)?;
        let ram = ram::inflate(&rpath, &z, manifest.ram.size.0, manifest.ram.fnv1a64.0)?;
        Ok(Snapshot {
            dir: dir.to_path_buf(),
            manifest,
            ram,
        })
    }

    /// The hart state to resume from.
    pub fn resume_state(&self) -> Result<ResumeState, ResumeError> {
        let h = &self.manifest.hart;
        let priv_ =
            priv_of(&h.privilege).ok_or_else(|| ResumeError::Privilege(h.privilege.clone()))?;
        let x: [u64; 32] =
            h.x.iter()
                .map(|v| v.0)
                .collect::<Vec<_>>()
                .try_into()
                .map_err(|_| ResumeError::XCount(h.x.len()))?;
        let f = match (h.f.len(), h.fcsr) {
            (0, _) => None,
            (32, fcsr) => Some((std::array::from_fn(|i| h.f[i].0), fcsr.map_or(0, |v| v.0))),
            (n, _) => return Err(ResumeError::FCount(n)),
        };
        let csrs = h
            .csrs
            .iter()
            .filter_map(|c| u16::try_from(c.csr.0).ok().map(|n| (n, c.value.0)))
            .collect();
        let vector = match &h.vector {
            None => None,
            Some(v) => {
                if v.v.len() != 32 {
                    return Err(ResumeError::VCount(v.v.len()));
                }
                super::vstate::check(v)?;
                let regs =
                    v.v.iter()
                        .enumerate()
                        .map(|(i, s)| hex_bytes(s).ok_or(ResumeError::VHex(i)))
                        .collect::<Result<Vec<_>, _>>()?;
                Some(VectorState {
                    vlen: v.vlen,
                    regs,
                    vl: v.vl.0,
                    vtype: v.vtype.0,
                    vstart: v.vstart.0,
                    vxrm: ((v.vcsr.0 >> 1) & 3) as u8,
                    vxsat: (v.vcsr.0 & 1) as u8,
                })
            }
        };
        Ok(ResumeState {
            pc: h.pc.0,
            priv_,
            x,
            f,
            csrs,
            vector,
            mtimecmp: Some(self.manifest.platform.mtimecmp.0),
            mtime: Some(self.manifest.platform.mtime.0),
            msip: self.manifest.platform.msip.0 as u32,
            timebase_hz: Some(QEMU_VIRT_TIMEBASE_HZ),
        })
    }

    pub fn init_path(&self) -> PathBuf {
        self.dir.join(INIT_FILE)
    }

    /// The stored copy of each file the init's line table names (`files`,
    /// as `Program::files`), where the manifest maps it to one.
    pub fn init_copies(&self, files: &[String]) -> Vec<Option<PathBuf>> {
        let src = self.dir.join(INIT_SRC_DIR);
        files
            .iter()
            .map(|f| {
                let s = self.manifest.init.sources.iter().find(|s| s.name == *f)?;
                Some(src.join(&s.stored))
            })
            .collect()
    }
}

/// Parses a manifest, refusing other formats and versions by name.
pub fn parse_manifest(bytes: &[u8]) -> Result<Manifest, ManifestError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ManifestError::NotUtf8)?;
    let v: serde_json::Value = serde_json::from_str(text).map_err(ManifestError::NotJson)?;
    match v.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(other) => return Err(ManifestError::Format(other.to_string())),
        None => return Err(ManifestError::NoFormat),
    }
    let version = v.get("version").and_then(|n| n.as_u64());
    if !version.is_some_and(|n| (u64::from(OLDEST)..=u64::from(VERSION)).contains(&n)) {
        return Err(ManifestError::Version {
            version: v.get("version").cloned(),
            made_by: v
                .get("made_by")
                .and_then(|m| m.as_str())
                .map(str::to_string),
        });
    }
    serde_json::from_value(v).map_err(ManifestError::Malformed)
}
