//! `trapscope snapshot` with the work inits (split from init_work.rs):
//! each is accepted without --vlen, and an init whose setup fails ends the
//! snapshot at the kernel's panic with the init's message, not at
//! --timeout.

use super::*;

#[test]
fn snapshot_accepts_each_work_init_without_v() {
    // `trapscope snapshot --init NAME` knows the new names and, as they run
    // no vector instruction, asks for no --vlen: with a minikernel ELF as
    // --kernel it gets as far as the Image check, as --init getppid does.
    let out = std::env::temp_dir().join(format!("trapscope-init-work-{}", std::process::id()));
    let elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf");
    for name in WORK_INITS.iter().copied().chain(["getppid"]) {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .arg("snapshot")
            .arg("--kernel")
            .arg(&elf)
            .arg("--vmlinux")
            .arg(&elf)
            .args(["--init", name, "-o"])
            .arg(&out)
            .env("TRAPSCOPE_QEMU", "/nonexistent/qemu")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains("not a kernel Image"), "{name}: {err}");
    }
    assert!(!out.exists());
}

#[test]
fn a_snapshot_ends_at_the_kernels_panic_with_the_inits_message() {
    // An init whose setup fails writes its line and exits; as pid 1 the
    // kernel then panics and never makes the loop's syscall. The snapshot
    // ends there, with the console's lines, not at --timeout.
    // guest-asm/bad/console_panic.S prints those lines bare-metal.
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = snapshot_util::scratch("init-work-panic");
    let out_dir = dir.join("out");
    let start = std::time::Instant::now();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["snapshot", "--elf", "assets/guest/bad/console_panic.elf"])
        .args(["--ecall-symbol", "never_reached", "--loop-symbol", "_start"])
        .args(["--timeout", "60", "-o"])
        .arg(&out_dir)
        .output()
        .unwrap();
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let last = err.lines().last().unwrap_or("");
    assert!(
        err.lines()
            .all(|l| l == last || l.starts_with("trapscope: snapshot: ")),
        "{err}"
    );
    for needle in [
        "trapscope: ",
        "the kernel stopped with a panic",
        "never_reached",
        "0 of 100",
        "enable CONFIG_SECCOMP",
        "Kernel panic - not syncing",
    ] {
        assert!(last.contains(needle), "{needle:?} in {last}");
    }
    // Checked once a second: well before the 60 s timeout.
    assert!(took < std::time::Duration::from_secs(20), "took {took:?}");
    assert!(!out_dir.exists(), "no snapshot written");
    let _ = std::fs::remove_dir_all(&dir);
}
