//! `trapscope verify` through the binary (docs/guides/real-kernels.md, "`trapscope verify`"):
//! exit 0 when a snapshot of the Sv39 minikernel is what QEMU reaches, at
//! the snapshot point and after the iterations; exit 1 when a register or
//! a RAM byte of it was changed, naming the register, or the address with
//! its symbol; exit 2 with one line on stderr for what cannot be verified
//! (QEMU missing, an older snapshot, interrupts kept, a missing kernel, a
//! damaged RAM file, a wrong --variant or --core).
//!
//! The QEMU cases skip with a printed reason when qemu-system-riscv64 is
//! absent (fail under TRAPSCOPE_REQUIRE_QEMU=1); the others use snapshots
//! made by hand and run anywhere.

use crate::snapshot_util;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use snapshot_util::{finish, manifest, scratch, write_snapshot};
use trapscope::machine::Program;
use trapscope::snapshot::format::{self, Hex, Snapshot};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn minikernel() -> PathBuf {
    root().join("assets/guest/minikernel-sv39.elf")
}

fn trapscope(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_trapscope"));
    c.current_dir(root())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    finish(
        c.spawn().unwrap(),
        Duration::from_secs(180),
        &args.join(" "),
    )
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit 2 and one error line on stderr (after any `trapscope: verify: `
/// progress lines), holding every needle.
fn error_line(o: &Output, needles: &[&str]) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let errors: Vec<&str> = err
        .lines()
        .filter(|l| !l.starts_with("trapscope: verify: "))
        .collect();
    assert_eq!(errors.len(), 1, "one error line: {err}");
    assert!(errors[0].starts_with("trapscope: error: "), "{err}");
    for n in needles {
        assert!(errors[0].contains(n), "expected {n:?} in: {err}");
    }
    errors[0].to_string()
}

fn symbol(name: &str) -> u64 {
    let p = Program::load(&minikernel()).unwrap();
    p.symbol(name).unwrap_or_else(|| panic!("{name}")).addr
}

/// A snapshot made by hand that passes every check before QEMU starts: a
/// reproducible bare-ELF snapshot of the minikernel's markers, 1 MiB of
/// RAM (QEMU's -m counts MiB).
fn hand_made(dir: &Path, edit: impl Fn(&mut format::Manifest)) -> PathBuf {
    let mut ram = snapshot_util::poweroff_ram();
    ram.resize(1 << 20, 0);
    let mut m = manifest(&ram);
    m.qemu.reproducible = true;
    m.kernel.image = minikernel().display().to_string();
    m.init.ecall = Hex(symbol("user_syscall_ecall"));
    m.init.loop_top = Hex(symbol("bench_timed_loop"));
    edit(&mut m);
    let snap = dir.join("snap");
    write_snapshot(&snap, &m, &ram);
    snap
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

const NO_QEMU: [(&str, &str); 1] = [("TRAPSCOPE_QEMU", "/nonexistent/qemu")];

#[test]
fn without_qemu_one_line_names_the_package() {
    let dir = scratch("verify-noqemu");
    let snap = hand_made(&dir, |_| {});
    let o = trapscope(&["verify", &s(&snap)], &NO_QEMU);
    error_line(
        &o,
        &[
            "TRAPSCOPE_QEMU=/nonexistent/qemu",
            "apt-get install qemu-system-misc",
        ],
    );
    assert_eq!(stdout(&o), "", "no half report");
    // A scenario's snapshot variant: the line names the variant.
    let sc = snapshot_util::scenario(&dir, "snap", "");
    let o = trapscope(&["verify", &s(&sc)], &NO_QEMU);
    error_line(&o, &["variant snap (", "qemu-system-misc"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_cannot_be_verified_is_one_line() {
    let dir = scratch("verify-refused");
    // Taken before snapshots were reproducible.
    let old = hand_made(&dir.join("old"), |m| m.qemu.reproducible = false);
    let o = trapscope(&["verify", &s(&old)], &NO_QEMU);
    error_line(&o, &["-icount", "take it again"]);
    // Interrupts kept enabled at the snapshot point.
    let irq = hand_made(&dir.join("irq"), |m| {
        m.hart.csrs.push(format::Csr {
            csr: Hex(0x304),
            name: "mie".into(),
            value: Hex(0x80),
        })
    });
    let o = trapscope(&["verify", &s(&irq)], &NO_QEMU);
    error_line(&o, &["interrupts enabled (mie = 0x80)"]);
    // The recorded kernel is gone.
    let gone = hand_made(&dir.join("gone"), |m| {
        m.kernel.image = "/nonexistent/Image".into();
        m.kernel.vmlinux = Some("/nonexistent/vmlinux".into());
        m.kernel.append = trapscope::qemu::take::LINUX_APPEND.into();
    });
    let o = trapscope(&["verify", &s(&gone)], &NO_QEMU);
    error_line(
        &o,
        &[
            "/nonexistent/Image",
            "kernel Image is not there",
            "--kernel",
        ],
    );
    // --iterations 0, --variant with a directory, a wrong --variant, a
    // scenario without snapshots.
    let ok = hand_made(&dir.join("ok"), |_| {});
    let o = trapscope(&["verify", &s(&ok), "--iterations", "0"], &NO_QEMU);
    error_line(&o, &["--iterations must be at least 1"]);
    let o = trapscope(&["verify", &s(&ok), "--variant", "x"], &NO_QEMU);
    error_line(&o, &["--variant goes with a scenario file"]);
    let sc = snapshot_util::scenario(&dir.join("ok"), "snap", "");
    let o = trapscope(&["verify", &s(&sc), "--variant", "nope"], &NO_QEMU);
    error_line(
        &o,
        &[
            "no variant 'nope' with a snapshot",
            "snapshot variants: snap",
        ],
    );
    let o = trapscope(&["verify", "scenarios/ras-trap-entry.toml"], &NO_QEMU);
    error_line(&o, &["no variant names a snapshot"]);
    let o = trapscope(&["verify", "/nonexistent/snap"], &NO_QEMU);
    error_line(
        &o,
        &["/nonexistent/snap: no such snapshot directory or scenario file"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_names_the_exit_statuses() {
    let o = trapscope(&["verify", "--help"], &[]);
    assert_eq!(o.status.code(), Some(0));
    let h = stdout(&o);
    for n in [
        "Exit status: 0",
        "1 a difference",
        "2 an error",
        "--iterations",
        "[default: 100]",
    ] {
        assert!(h.contains(n), "{n:?} in {h}");
    }
}

/// Writes `snap` again with `edit` applied to its manifest and RAM, the
/// RAM's digest recomputed, so only the edit differs.
fn tamper(from: &Path, to: &Path, edit: impl Fn(&mut format::Manifest, &mut Vec<u8>)) {
    let mut s = Snapshot::load(from).unwrap();
    edit(&mut s.manifest, &mut s.ram);
    s.manifest.ram.fnv1a64 = Hex(format::fnv1a64(&s.ram));
    Snapshot::write(to, &s.manifest, &s.ram).unwrap();
    std::fs::copy(from.join(format::INIT_FILE), to.join(format::INIT_FILE)).unwrap();
}

#[test]
fn a_minikernel_snapshot_verifies_and_a_changed_one_does_not() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("verify-qemu");
    let snap = dir.join("snap");
    let cfg = snapshot_util::minikernel_sv39(20);
    trapscope::qemu::take::take(&cfg, &snap, &mut |l| eprintln!("{l}")).unwrap();

    let o = trapscope(&["verify", &s(&snap), "--iterations", "10"], &[]);
    let out = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for n in [
        "booted: bare-metal ELF ",
        "stopped: before execution 20 of user_syscall_ecall (0x",
        "state at the snapshot point: equal (pc, x1-x31, ",
        "after 10 iterations: equal (pc, x1-x31, ",
        "RAM 128 MiB)",
        "  mip, sip: ",
        "  misa: ",
    ] {
        assert!(out.contains(n), "{n:?} in {out}");
    }

    // One GPR changed in snapshot.json: named with both values.
    let gpr = dir.join("gpr");
    let x5 = Snapshot::load(&snap).unwrap().manifest.hart.x[5].0;
    tamper(&snap, &gpr, |m, _| m.hart.x[5] = Hex(x5 ^ 1));
    let o = trapscope(&["verify", &s(&gpr), "--iterations", "10"], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let want = format!(
        "state at the snapshot point: differs: x5 (t0): snapshot {:#x}",
        x5 ^ 1
    );
    assert!(out.contains(&want), "{want:?} in {out}");
    assert!(out.contains(&format!(", QEMU {x5:#x}")), "{out}");
    assert!(out.contains("after 10 iterations: not compared"), "{out}");

    // One RAM byte changed (the digest rewritten to match): the address
    // with its symbol, the two values, how many bytes.
    let byte = dir.join("byte");
    let at = symbol("knob_rseq");
    let off = (at - snapshot_util::BASE) as usize;
    let was = Snapshot::load(&snap).unwrap().ram[off];
    tamper(&snap, &byte, |_, ram| ram[off] ^= 0x40);
    let o = trapscope(&["verify", &s(&byte), "--iterations", "10"], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let want = format!(
        "differs: RAM at {at:#x} (knob_rseq): snapshot {:#04x}, QEMU {was:#04x} (1 byte in 1 page of 128 MiB differs)",
        was ^ 0x40
    );
    assert!(out.contains(&want), "{want:?} in {out}");

    // The same byte changed without its digest: the RAM file is refused.
    let damaged = dir.join("damaged");
    tamper(&snap, &damaged, |_, _| {});
    let mut s2 = Snapshot::load(&damaged).unwrap();
    s2.ram[off] ^= 0x40;
    Snapshot::write(&damaged, &s2.manifest, &s2.ram).unwrap();
    let o = trapscope(&["verify", &s(&damaged)], &[]);
    error_line(&o, &["ram.zlib: digest", "differs from the manifest's"]);

    // Through a scenario naming the snapshot: a heading per variant.
    let sc = snapshot_util::scenario(&dir, "snap", "");
    let o = trapscope(&["verify", &s(&sc), "--iterations", "3"], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.starts_with("variant snap ("), "{out}");
    assert!(out.contains("after 3 iterations: equal"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_snapshot_with_v_verifies_on_a_core_of_its_vlen() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("verify-v");
    let snap = dir.join("snap");
    let cfg = trapscope::qemu::take::Config {
        vlen: Some(256),
        ..snapshot_util::minikernel_sv39(20)
    };
    trapscope::qemu::take::take(&cfg, &snap, &mut |l| eprintln!("{l}")).unwrap();
    let o = trapscope(
        &["verify", &s(&snap), "--iterations", "5", "--core", "x60"],
        &[],
    );
    let out = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("V at VLEN 256"), "{out}");
    assert!(
        out.contains("after 5 iterations: equal (pc, x1-x31, ")
            && out.contains("v0-v31 + vl/vtype/vstart/vcsr"),
        "{out}"
    );
    // A core without V, or of another VLEN: refused before QEMU starts.
    let o = trapscope(&["verify", &s(&snap), "--core", "u74"], &NO_QEMU);
    error_line(&o, &["--core u74: has no V 1.0 unit", "VLEN 256"]);
    let o = trapscope(&["verify", &s(&snap), "--core", "x280"], &NO_QEMU);
    error_line(&o, &["--core x280: VLEN 512", "taken at VLEN 256"]);
    let _ = std::fs::remove_dir_all(&dir);
}
