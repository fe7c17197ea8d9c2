//! `trapscope verify`: a snapshot checked against QEMU, the independent
//! oracle, with no source tree.
//!
//! 1. QEMU boots again what the manifest records (the Image and vmlinux,
//!    or the bare ELF; the stored `init.elf`; the VLEN, RAM size and
//!    kernel command line) with the same reproducible clock
//!    (docs/decisions.md D14), stops before the same execution of the
//!    same marker, and its state must be the stored one: every register,
//!    every CSR, the CLINT and all of RAM.
//! 2. QEMU runs N more iterations, to the (at+N)-th marker; trapscope runs
//!    N from the snapshot on QEMU's clock (one nanosecond an instruction,
//!    from QEMU's count at the snapshot point: `Machine::count_time_as_qemu`),
//!    so that a path that reads the time reads what QEMU's did; pc, GPRs,
//!    the CSRs trapscope holds, FP and V state and all of RAM must agree.
//!    mip, the counters and misa are masked (`MASKED`, each with its
//!    reason). A tick snapshot's iterations are not compared: QEMU and
//!    trapscope would take its interrupts at other instructions.
//!
//! The first difference is named, a pc or address with its symbol.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use super::take::{self, Booted, Config, Guest};
use crate::cost::Profile;
use crate::machine::Program;
use crate::snapshot::format::Snapshot;

mod compare;
mod error;
mod names;
mod ours;
mod report;
#[cfg(test)]
mod tests;
pub use compare::{Comparison, Covered, Diff, RamDiff};
pub use error::{RunEnded, VerifyError};
pub use report::Report;

/// Iterations after the snapshot point when `--iterations` is not given.
pub const DEFAULT_ITERATIONS: u64 = 100;

/// What is not compared after the iterations, and why.
pub const MASKED: [(&str, &str); 3] = [
    (
        "mip, sip",
        "pending interrupts: QEMU's timer runs on QEMU's clock, trapscope's on the model's, and neither takes one (the snapshot set mie = 0)",
    ),
    (
        "cycle, time, instret (mcycle, minstret)",
        "counters as CSRs: trapscope keeps its model's (the guest read QEMU's count here, as QEMU's guest did)",
    ),
    (
        "misa",
        "QEMU reports its own extension set, trapscope its emulator's",
    ),
];

/// Whether CSR `n` is masked after the iterations (`MASKED`): mip, sip,
/// misa, and the counters (priv spec §2.2: 0xb00–0xb9f machine,
/// 0xc00–0xc9f user).
fn masked(n: u16) -> bool {
    matches!(n, 0x344 | 0x144 | 0x301 | 0xb00..=0xb9f | 0xc00..=0xc9f)
}

/// What to verify.
#[derive(Clone, Debug)]
pub struct Target {
    pub dir: PathBuf,
    /// Instead of the Image (or bare ELF) the snapshot recorded.
    pub kernel: Option<PathBuf>,
    /// Instead of the vmlinux it recorded (its build id must match).
    pub vmlinux: Option<PathBuf>,
    /// For a snapshot with V: the core whose V unit runs it (its VLEN
    /// must be the snapshot's); ignored for one without.
    pub core: Option<Rc<Profile>>,
    pub iterations: u64,
    /// How long QEMU may take to reach each stop.
    pub timeout: Duration,
}

/// Checks `t.dir` against QEMU (the module's doc); `Err` is one line: bad
/// input, QEMU missing, a kernel that does not boot.
pub fn verify(t: &Target, progress: &mut dyn FnMut(&str)) -> Result<Report, VerifyError> {
    if t.iterations == 0 {
        return Err(VerifyError::NoIterations);
    }
    let snap = Snapshot::load(&t.dir)?;
    let m = snap.manifest.clone();
    refuse_unverifiable(&snap)?;
    let vlen = m.hart.vector.as_ref().map(|v| v.vlen);
    if let (Some(vlen), Some(core)) = (vlen, &t.core) {
        check_core(core, vlen)?;
    }
    let (cfg, booted) = config(&snap, t)?;
    let mut ours = ours::Ours::new(snap, t.vmlinux.as_deref())?;
    let names = names::Names::new(&ours.machine);

    let mut b = Booted::start(&cfg, progress)?;
    if b.ecall != m.init.ecall.0 {
        return Err(VerifyError::Marker {
            symbol: cfg.ecall_symbol.clone(),
            here: b.ecall,
            was: m.init.ecall.0,
        });
    }
    let mut report = Report {
        booted: format!("{booted}; {}", qemu_note(&b, &m.qemu)),
        stop: format!(
            "before execution {} of {} ({:#x})",
            m.init.at, cfg.ecall_symbol, m.init.ecall.0
        ),
        iterations: t.iterations,
        at_snapshot: Comparison::new("snapshot", "QEMU"),
        after: None,
        not_compared: None,
    };
    if cfg.ticks {
        report.stop = format!(
            "at the kernel's entry for timer interrupt {} taken at {} ({:#x})",
            m.init.at, cfg.ecall_symbol, m.init.ecall.0
        );
        b.run_to_tick(m.init.at, progress)?;
    } else {
        b.run_to(m.init.at, progress)?;
        b.quiesce()?;
    }
    let q_hart = b.hart()?;
    let q_platform = b.platform()?;
    let c = &mut report.at_snapshot;
    compare::harts(c, &m.hart, &q_hart, &|_| true, &names);
    compare::platforms(c, &m.platform, &q_platform);
    {
        let q_ram = b.ram()?;
        let mut theirs = |at: u64, len: usize| Ok(slice(&q_ram, at - m.ram.base.0, len));
        compare::ram(c, m.ram.base.0, ours.stored_ram(), &mut theirs, &names)?;
    }
    if !report.at_snapshot.equal() {
        return Ok(report);
    }
    if cfg.ticks {
        report.not_compared = Some(
            "a tick snapshot keeps interrupts on: QEMU takes its timer interrupts on QEMU's clock and trapscope on the model's, at other instructions".into(),
        );
        return Ok(report);
    }

    progress(&format!("QEMU runs {} iterations", t.iterations));
    b.run_to(m.init.at + t.iterations, progress)?;
    let q_hart = b.hart()?;
    let q_ram = b.ram()?;
    drop(b);
    progress(&format!("trapscope runs {} iterations", t.iterations));
    let mut after = Comparison::new("QEMU", "trapscope");
    let budget = budget(&m.hart, &q_hart, t.iterations);
    // QEMU's clock counts instructions: trapscope's does too here, from
    // QEMU's count at the snapshot point (its minstret), so that a path
    // that reads the time reads what QEMU's did.
    let counted = minstret(&m.hart);
    if let Some(base) = counted {
        let per_tick = 1_000_000_000 / take::QEMU_VIRT_TIMEBASE_HZ;
        ours.machine.count_time_as_qemu(base, per_tick);
    }
    let ran = ours.run_to(m.init.ecall.0, t.iterations + 1, budget)?;
    if let (n @ 1.., first) = ours.machine.clock_reads()
        && counted.is_none()
    {
        let place = first.map_or_else(String::new, |pc| format!(", first at {}", names.code(pc)));
        report.not_compared = Some(format!(
            "the path read the clock {n} times in trapscope's run{place}, and the snapshot's manifest has no minstret, QEMU's instruction count, for trapscope's clock to start from as QEMU's (-icount) did: take it again with this trapscope's `snapshot`"
        ));
        return Ok(report);
    }
    match ran {
        Err(how) => after.ended = Some(how.to_string()),
        Ok(()) => {
            let mine = ours.hart(!q_hart.f.is_empty());
            let held = |n: u16| !masked(n) && mine.csrs.iter().any(|c| c.csr.0 == u64::from(n));
            compare::harts(&mut after, &q_hart, &mine, &held, &names);
            let mut read = |at: u64, len: usize| ours.ram(at, len);
            compare::ram(&mut after, m.ram.base.0, &q_ram, &mut read, &names)?;
        }
    }
    report.after = Some(after);
    Ok(report)
}

/// "QEMU 7.2.22", and how it differs from the QEMU that took the
/// snapshot, if it does (a difference found is then likely its doing).
fn qemu_note(b: &Booted, was: &crate::snapshot::format::QemuInfo) -> String {
    let mut s = format!("QEMU {}", b.version);
    if b.version.to_string() != was.version {
        s.push_str(&format!(" (the snapshot's was {})", was.version));
    }
    if b.cpu != was.cpu {
        s.push_str(&format!(
            ", -cpu {} (the snapshot's was {})",
            b.cpu, was.cpu
        ));
    }
    s
}

fn slice(v: &[u8], off: u64, len: usize) -> Vec<u8> {
    let off = usize::try_from(off).unwrap_or(usize::MAX).min(v.len());
    v[off..(off + len).min(v.len())].to_vec()
}

/// trapscope's instruction budget: twice what QEMU retired between the two
/// stops (minstret, which QEMU counts exactly on its instruction-counted
/// clock), and a million more; a million an iteration without minstret.
fn budget(
    before: &crate::snapshot::format::HartDump,
    after: &crate::snapshot::format::HartDump,
    iterations: u64,
) -> u64 {
    match (minstret(before), minstret(after)) {
        (Some(a), Some(b)) if b > a => (b - a).saturating_mul(2).saturating_add(1_000_000),
        _ => iterations.saturating_mul(1_000_000),
    }
}

/// A hart's minstret (QEMU's instruction count, under `-icount`).
fn minstret(h: &crate::snapshot::format::HartDump) -> Option<u64> {
    h.csrs.iter().find(|c| c.csr.0 == 0xb02).map(|c| c.value.0)
}

/// Snapshots a second boot cannot reproduce, or whose loop QEMU and
/// trapscope would not run alike, refused in one line.
fn refuse_unverifiable(snap: &Snapshot) -> Result<(), VerifyError> {
    let m = &snap.manifest;
    if !m.qemu.reproducible {
        return Err(VerifyError::NotReproducible {
            dir: snap.dir.clone(),
            made_by: m.made_by.clone(),
        });
    }
    let mie = m.hart.csrs.iter().find(|c| c.csr.0 == 0x304);
    // A tick snapshot keeps them on by design: its snapshot point is
    // compared, its iterations are not (`verify`).
    if let Some(c) = mie.filter(|c| c.value.0 != 0 && m.init.tick_handler.is_none()) {
        return Err(VerifyError::InterruptsOn {
            dir: snap.dir.clone(),
            mie: c.value.0,
        });
    }
    Ok(())
}

/// A core for a snapshot with V: V 1.0 at the snapshot's VLEN.
fn check_core(core: &Profile, vlen: u32) -> Result<(), VerifyError> {
    let v = &core.vector;
    if !(v.present.value && core.vector_isa == "v1.0") {
        return Err(VerifyError::NoVectorUnit {
            core: core.name.clone(),
            vlen,
        });
    }
    if v.vlen.value != vlen {
        return Err(VerifyError::CoreVlen {
            core: core.name.clone(),
            has: v.vlen.value,
            vlen,
        });
    }
    Ok(())
}

/// A file the snapshot names must be there: one line saying which, and
/// how to name it instead.
fn present(p: &Path, what: &'static str, option: &'static str) -> Result<(), VerifyError> {
    match std::fs::metadata(p) {
        Ok(_) => Ok(()),
        Err(err) => Err(VerifyError::Missing {
            path: p.to_path_buf(),
            what,
            option,
            err,
        }),
    }
}

/// The name of a symbol at exactly `addr` in the ELF at `path`.
fn marker_name(path: &Path, addr: u64, what: &'static str) -> Result<String, VerifyError> {
    let p = Program::load(path)?;
    p.symbols()
        .iter()
        .filter(|s| s.addr == addr && !s.name.is_empty())
        .find(|s| p.symbol(&s.name).is_some_and(|f| f.addr == addr))
        .map(|s| s.name.clone())
        .ok_or_else(|| VerifyError::NoMarker {
            path: path.to_path_buf(),
            addr,
            what,
        })
}

/// The boot `take` would make for this snapshot, and a line saying what
/// it is.
fn config(snap: &Snapshot, t: &Target) -> Result<(Config, String), VerifyError> {
    let m = &snap.manifest;
    let image = t
        .kernel
        .clone()
        .unwrap_or_else(|| PathBuf::from(&m.kernel.image));
    let mib = m.ram.size.0 >> 20;
    if m.ram.size.0 & ((1 << 20) - 1) != 0 {
        return Err(VerifyError::RamMib { size: m.ram.size.0 });
    }
    let (guest, append, what) = match &m.kernel.vmlinux {
        Some(recorded) => {
            let vmlinux = t.vmlinux.clone().unwrap_or_else(|| PathBuf::from(recorded));
            present(&image, "kernel Image", "--kernel")?;
            present(&vmlinux, "vmlinux", "--vmlinux")?;
            check_build_id(&vmlinux, m.kernel.build_id.as_deref())?;
            let extra = m
                .kernel
                .append
                .strip_prefix(take::LINUX_APPEND)
                .ok_or_else(|| VerifyError::Append {
                    append: m.kernel.append.clone(),
                })?
                .trim()
                .to_string();
            let what = format!(
                "Linux {} (vmlinux {}, build id {}), init {} (the snapshot's init.elf)",
                image.display(),
                vmlinux.display(),
                m.kernel.build_id.as_deref().unwrap_or("none"),
                m.init.name
            );
            let guest = Guest::Linux {
                image: image.clone(),
                vmlinux,
                init: snap.init_path(),
                counted: m.init.counter.is_some(),
            };
            (guest, extra, what)
        }
        None => {
            if t.vmlinux.is_some() {
                return Err(VerifyError::NotLinux);
            }
            present(&image, "guest ELF", "--kernel")?;
            let what = format!("bare-metal ELF {}", image.display());
            (Guest::Elf(image.clone()), String::new(), what)
        }
    };
    let marker_file = match &guest {
        Guest::Linux { init, .. } => init.clone(),
        Guest::Elf(p) => p.clone(),
    };
    let vlen = m.hart.vector.as_ref().map(|v| v.vlen);
    let mut what = format!("{what}, {mib} MiB");
    if let Some(v) = vlen {
        what.push_str(&format!(", V at VLEN {v}"));
    }
    if !append.is_empty() {
        what.push_str(&format!(", kernel command line + '{append}'"));
    }
    let cfg = Config {
        guest,
        at: m.init.at,
        ecall_symbol: marker_name(&marker_file, m.init.ecall.0, "marker (its loop's ecall)")?,
        loop_symbol: marker_name(&marker_file, m.init.loop_top.0, "loop top")?,
        vlen,
        mem_mib: u32::try_from(mib).unwrap_or(u32::MAX),
        append,
        boot_timeout: t.timeout,
        ticks: m.init.tick_handler.is_some(),
        reproducible: true,
    };
    Ok((cfg, what))
}

/// The vmlinux must be the snapshot's build: one line when it was rebuilt.
fn check_build_id(vmlinux: &Path, want: Option<&str>) -> Result<(), VerifyError> {
    let Some(want) = want else { return Ok(()) };
    let bytes = crate::input::read_regular(vmlinux, "vmlinux", crate::input::KERNEL_IMAGE_MAX)
        .map_err(|err| VerifyError::ReadVmlinux {
            path: vmlinux.to_path_buf(),
            err,
        })?;
    let have = crate::snapshot::variant::build_id(&bytes);
    if have.as_deref() == Some(want) {
        return Ok(());
    }
    Err(VerifyError::Rebuilt {
        path: vmlinux.to_path_buf(),
        have,
        want: want.to_string(),
    })
}
