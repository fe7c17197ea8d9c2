//! The QEMU side of `trapscope snapshot`: finding qemu-system-riscv64, its
//! version, a `-cpu` value pinned to what trapscope runs
//! (docs/decisions.md D12), the guest's ISA read back from the device tree
//! QEMU builds, and the QEMU child process itself (`process.rs`).

pub mod cpio;
mod error;
pub mod gdb;
pub mod init_src;
pub mod own_init;
mod process;
pub mod take;
pub mod verify;

pub use crate::snapshot::isa::{has_extension, unsupported_extensions};
pub use error::{ProcessError, QemuError};
pub use process::{Launch, Qemu};

use crate::snapshot::fdt::{self, CpuIsa};
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The binary's name on PATH.
pub const BINARY: &str = "qemu-system-riscv64";
/// The environment variable that names another QEMU binary.
pub const ENV: &str = "TRAPSCOPE_QEMU";
/// The prefix of the device-tree dump's scratch directory in TMPDIR.
pub const DTB_SCRATCH: &str = "trapscope-dtb";

/// `$TRAPSCOPE_QEMU` (a path, or a name looked up on PATH), else
/// `qemu-system-riscv64` on PATH.
pub fn find_binary() -> Result<PathBuf, QemuError> {
    find_in(std::env::var_os(ENV), std::env::var_os("PATH"))
}

/// `find_binary` with the two variables given.
fn find_in(env: Option<OsString>, path: Option<OsString>) -> Result<PathBuf, QemuError> {
    let on_path = |name: &OsString| {
        let dirs = path.clone()?;
        std::env::split_paths(&dirs)
            .map(|d| d.join(name))
            .find(|p| is_executable(p))
    };
    if let Some(v) = env.filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        let found = if p.components().count() > 1 {
            Some(p.clone()).filter(|p| is_executable(p))
        } else {
            on_path(&v)
        };
        return found.ok_or(QemuError::NotExecutable { value: p });
    }
    on_path(&OsString::from(BINARY)).ok_or(QemuError::NotFound)
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A QEMU release, as `--version` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub micro: u32,
}

impl Version {
    pub const fn new(major: u32, minor: u32, micro: u32) -> Version {
        Version {
            major,
            minor,
            micro,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.micro)
    }
}

/// The version in `--version` output such as
/// "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)".
pub fn parse_version(text: &str) -> Result<Version, QemuError> {
    let first = text.lines().next().unwrap_or("");
    let bad = || QemuError::BadVersion {
        line: first.to_string(),
    };
    let rest = first.split_once("version ").ok_or_else(bad)?.1;
    let num: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let mut parts = num.split('.').map(|p| p.parse::<u32>());
    let mut next = |required: bool| match parts.next() {
        Some(Ok(n)) => Ok(n),
        None if !required => Ok(0),
        _ => Err(bad()),
    };
    Ok(Version {
        major: next(true)?,
        minor: next(true)?,
        micro: next(false)?,
    })
}

/// Runs `bin --version`.
pub fn version(bin: &Path) -> Result<Version, QemuError> {
    let out = output_within(Command::new(bin).arg("--version"), Duration::from_secs(10)).map_err(
        |err| QemuError::VersionRun {
            bin: bin.to_path_buf(),
            err,
        },
    )?;
    if !out.status.success() {
        return Err(QemuError::VersionFailed {
            bin: bin.to_path_buf(),
            stderr: first_line(&out.stderr),
        });
    }
    parse_version(&String::from_utf8_lossy(&out.stdout)).map_err(|e| match e {
        QemuError::BadVersion { line } => QemuError::VersionText {
            bin: bin.to_path_buf(),
            line,
        },
        e => e,
    })
}

/// The oldest QEMU whose CPU properties `cpu_arg` knows.
pub const OLDEST: Version = Version::new(7, 2, 0);
/// From this release on, QEMU has the newer extension properties (`OFF_NEW`).
pub const BARE_CPU: Version = Version::new(8, 2, 0);
/// The VLENs QEMU accepts ("VLEN in the range [128, 1024]", QEMU 7.2's own
/// message; a power of two).
pub const VLEN_RANGE: std::ops::RangeInclusive<u32> = 128..=1024;

/// CPU properties switched on, as QEMU 7.2 names them (case matters there).
const ON_7_2: &[&str] = &[
    "i", "m", "a", "f", "d", "c", "s", "u", "Zicsr", "Zifencei", "mmu", "pmp",
];
/// Every other extension QEMU 7.2's rv64 CPU offers (from `qom-list` of its
/// hart), switched off. `debug` (Sdtrig triggers, which trapscope
/// implements) keeps its default.
const OFF_7_2: &[&str] = &[
    "h",
    "e",
    "sstc",
    "svpbmt",
    "svinval",
    "svnapot",
    "sscofpmf",
    "Zihintpause",
    "Zfh",
    "Zfhmin",
    "zfinx",
    "zdinx",
    "zhinx",
    "zhinxmin",
    "zmmul",
    "zba",
    "zbb",
    "zbc",
    "zbs",
    "zbkb",
    "zbkc",
    "zbkx",
    "zk",
    "zkn",
    "zknd",
    "zkne",
    "zknh",
    "zkr",
    "zks",
    "zksed",
    "zksh",
    "zkt",
    "xventanacondops",
];
/// QEMU 7.2's experimental properties; gone or renamed in later releases.
const OFF_7_2_ONLY: &[&str] = &["x-j", "x-epmp", "x-smaia", "x-ssaia"];
/// QEMU >= 8.2: the `rv64` CPU with everything beyond RV64GC, Sv39 and
/// PMP named and off (lowercase names). Tested on QEMU 10.0.2, where it
/// gives `rv64imafdc_ziccamoa_ziccif_zicclsm_ziccrse_zicntr_zicsr_zifencei_ssccptr`
/// (the Zicc*/Ssccptr names state properties of memory, not instructions)
/// and Linux 6.12 boots. The bare `rv64i` CPU with an allow-list, which
/// QEMU documents for this, boots OpenSBI but not the kernel there (an
/// instruction access fault right after paging is on), so it is not used.
/// 8.2 to 9.1 are untested: `guest_isa` checks the result on every run.
const OFF_NEW: &[&str] = &[
    "h",
    "zba",
    "zbb",
    "zbc",
    "zbs",
    "sstc",
    "svpbmt",
    "svinval",
    "svnapot",
    "zicbom",
    "zicbop",
    "zicboz",
    "zihintntl",
    "zihintpause",
    "zihpm",
    "zawrs",
    "zfa",
];
/// Added in QEMU 9.2 (on by default in 10: Svvptc, and Svadu's hardware
/// A/D updates, which trapscope's walk does not make).
const OFF_9_2: &[&str] = &["svadu", "svvptc"];
const V_9_2: Version = Version {
    major: 9,
    minor: 2,
    micro: 0,
};

/// The `-cpu` value for QEMU `v`: RV64IMAFDC, Zicsr, Zifencei, S and U
/// modes, the MMU and PMP, privileged spec 1.11 (what unicorn's QEMU 5.0
/// implements), everything else off; V 1.0 at `vlen` bits when given.
///
/// V needs privileged spec 1.12 in QEMU (7.2 disables V under 1.11, with a
/// warning), so a vector CPU gets `priv_spec=v1.12.0`. QEMU 7.2 cannot limit
/// the MMU to Sv39 (its device tree says `riscv,sv48`): boot the kernel with
/// `no4lvl`.
pub fn cpu_arg(v: &Version, vlen: Option<u32>) -> Result<String, QemuError> {
    if *v < OLDEST {
        return Err(QemuError::TooOld { version: *v });
    }
    if let Some(n) = vlen
        && (!n.is_power_of_two() || !VLEN_RANGE.contains(&n))
    {
        return Err(QemuError::Vlen { vlen: n });
    }
    let (base, on, off): (&str, Vec<&str>, Vec<&str>) = if *v >= BARE_CPU {
        let mut off = OFF_NEW.to_vec();
        if *v >= V_9_2 {
            off.extend(OFF_9_2);
        }
        ("rv64", Vec::new(), off)
    } else {
        let mut off = OFF_7_2.to_vec();
        if (v.major, v.minor) == (7, 2) {
            off.extend(OFF_7_2_ONLY);
        }
        if vlen.is_none() {
            // V implies Zve64f and Zve32f; without V they go too.
            off.extend(["v", "Zve32f", "Zve64f"]);
        }
        ("rv64", ON_7_2.to_vec(), off)
    };
    let mut out = vec![base.to_string()];
    out.extend(on.iter().map(|p| format!("{p}=on")));
    out.extend(off.iter().map(|p| format!("{p}=off")));
    if *v < BARE_CPU {
        // Programmable counters (Zihpm): trapscope models only cycle, time and instret.
        out.push("pmu-num=0".into());
    } else if vlen.is_none() {
        out.push("v=off".into());
    }
    match vlen {
        Some(n) => {
            out.push(format!("v=on,vlen={n},elen=64,vext_spec=v1.0"));
            out.push("priv_spec=v1.12.0".into());
        }
        None => out.push("priv_spec=v1.11.0".into()),
    }
    Ok(out.join(","))
}

/// The ISA of the hart QEMU builds for `-cpu cpu`, from the device tree it
/// dumps (`-M virt,dumpdtb=FILE` writes the tree and exits). A warning from
/// QEMU about the CPU is an error.
pub fn guest_isa(bin: &Path, cpu: &str) -> Result<CpuIsa, QemuError> {
    // QEMU writes the tree into a fresh private directory, never at a
    // name in TMPDIR someone could have put a link at.
    let scratch = crate::output::scratch_dir(DTB_SCRATCH)?;
    let file = scratch.join("virt.dtb");
    let mut machine = OsString::from("virt,dumpdtb=");
    machine.push(process::escape_commas(file.as_os_str()));
    let out = output_within(
        Command::new(bin)
            .arg("-M")
            .arg(machine)
            .args(["-cpu", cpu, "-nographic", "-smp", "1"]),
        Duration::from_secs(30),
    );
    let dtb = std::fs::read(&file);
    drop(scratch);
    let bin_ = || bin.to_path_buf();
    let out = out.map_err(|err| QemuError::DumpRun { bin: bin_(), err })?;
    if !out.status.success() {
        return Err(QemuError::RefusedCpu {
            bin: bin_(),
            cpu: cpu.to_string(),
            stderr: first_line(&out.stderr),
        });
    }
    // QEMU warns, and carries on, when it drops an extension it was asked
    // for (7.2: "disabling v extension ... because privilege spec version
    // does not match"): the CPU is then not the one pinned.
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(w) = stderr.lines().find(|l| l.contains("warning:")) {
        return Err(QemuError::ChangedCpu {
            bin: bin_(),
            cpu: cpu.to_string(),
            warning: first_line(w.as_bytes()),
        });
    }
    let dtb = dtb.map_err(|err| QemuError::NoDeviceTree {
        bin: bin_(),
        file: file.clone(),
        err,
    })?;
    fdt::cpu_isa(&dtb).map_err(|err| QemuError::DeviceTree { bin: bin_(), err })
}

/// The first non-empty line of `bytes`, control characters escaped.
pub(crate) fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("(no message)");
    crate::escape::escape_line(line).into_owned()
}

/// Runs `cmd` (stdin null) to completion, killing it after `limit`. It
/// leads a process group of its own, and the whole group is killed at
/// the end, so that a wrapper's children (a `TRAPSCOPE_QEMU` script's
/// QEMU) go with it and none holds the output pipes open.
fn output_within(cmd: &mut Command, limit: Duration) -> Result<Output, ProcessError> {
    use std::os::unix::process::CommandExt;
    let mut child = cmd
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(ProcessError::Start)?;
    let drain = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out_t = drain(
        child
            .stdout
            .take()
            .map(|r| Box::new(r) as Box<dyn std::io::Read + Send>),
    );
    let err_t = drain(
        child
            .stderr
            .take()
            .map(|r| Box::new(r) as Box<dyn std::io::Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > limit => {
                process::kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                return Err(ProcessError::Killed {
                    secs: limit.as_secs(),
                });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                process::kill_group(child.id());
                return Err(ProcessError::Wait(e));
            }
        }
    };
    process::kill_group(child.id());
    Ok(Output {
        status,
        stdout: out_t.join().unwrap_or_default(),
        stderr: err_t.join().unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests;
