//! No process trapscope starts for a snapshot outlives it, even when
//! `TRAPSCOPE_QEMU` is a wrapper script that runs QEMU (or anything) as a
//! child rather than by `exec`: QEMU's watchdog and the `--version` probe
//! kill the whole process group they lead (qemu/process.rs).
//!
//! Skips with a printed reason when QEMU is absent; CI sets
//! TRAPSCOPE_REQUIRE_QEMU=1 so absence fails.

use crate::snapshot_util;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Writes an executable shell script `dir/name` with `body`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

fn gone_within(marker: &str, limit: Duration, what: &str) {
    let start = Instant::now();
    while let Some(cmd) = snapshot_util::process_with(marker) {
        assert!(start.elapsed() < limit, "{what}: still running: {cmd}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether a process whose command line starts with `prefix` (QEMU's own
/// binary, not the wrapper or the watchdog shell) and holds `marker` runs.
fn qemu_running(marker: &str, prefix: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
        std::fs::read(e.path().join("cmdline")).is_ok_and(|c| {
            let text = String::from_utf8_lossy(&c).replace('\0', " ");
            text.starts_with(prefix) && text.contains(marker)
        })
    })
}

/// A wrapper that runs QEMU as its child (no `exec`), then a SIGKILL of
/// trapscope while the guest spins: QEMU must end too.
#[test]
fn sigkill_of_trapscope_ends_qemu_under_a_wrapper_without_exec() {
    let Some(qemu) = snapshot_util::qemu_path_or_skip() else {
        return;
    };
    let dir = snapshot_util::scratch("wrapkill");
    let wrapper = script(
        &dir,
        "qemu-wrapper",
        &format!("\"{}\" \"$@\"\nexit $?", qemu.display()),
    );
    let out_dir = dir.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args([
            "snapshot",
            "--elf",
            "assets/guest/bad/loop_forever.elf",
            "--ecall-symbol",
            "tohost",
            "--loop-symbol",
            "_start",
            "--timeout",
            "30",
            "-o",
        ])
        .arg(&out_dir)
        .env("TRAPSCOPE_QEMU", &wrapper)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    // QEMU's command line holds the scratch directory named after
    // trapscope's pid; the wrapper's does too, so wait for QEMU's own.
    let marker = format!("trapscope-snapshot-{pid}-");
    let start = Instant::now();
    let qemu_own = format!("{} ", qemu.display());
    while !qemu_running(&marker, &qemu_own) {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "QEMU never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let st = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let _ = child.wait();
    let gone = Instant::now();
    while qemu_running(&marker, &qemu_own) {
        assert!(
            gone.elapsed() < Duration::from_secs(3),
            "QEMU (under a wrapper) outlived a SIGKILL of trapscope"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    gone_within(
        &marker,
        Duration::from_secs(3),
        "QEMU (under a wrapper) after SIGKILL of trapscope",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `TRAPSCOPE_QEMU` whose `--version` never answers: trapscope gives up
/// after 10 s in one line, and the wrapper's child goes with it.
#[test]
fn a_version_that_never_returns_is_killed_with_its_children() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = snapshot_util::scratch("wraphang");
    let marker = format!("trapscope-hang-{}", std::process::id());
    // `; true` keeps the inner shell from exec'ing sleep, so its command
    // line (with the marker) stays for the whole sleep.
    let wrapper = script(
        &dir,
        "qemu-hang",
        &format!("sh -c 'sleep 300; true' {marker}"),
    );
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root())
        .args([
            "snapshot",
            "--elf",
            "assets/guest/minikernel.elf",
            "--ecall-symbol",
            "user_syscall_ecall",
            "--loop-symbol",
            "bench_timed_loop",
            "-o",
        ])
        .arg(dir.join("out"))
        .env("TRAPSCOPE_QEMU", &wrapper)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("--version") && err.contains("killed"), "{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    gone_within(
        &marker,
        Duration::from_secs(2),
        "the --version wrapper's child",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
