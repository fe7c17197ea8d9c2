//! `snapshot`'s checks that need no QEMU, each one line before anything
//! boots: `--init tick` with a bare-metal ELF (which has no /init to spin),
//! and a bare-metal ELF whose entry is not RAM's base (QEMU's `-bios none`
//! starts the hart there, whatever the ELF says).

use std::process::Command;

#[test]
fn tick_with_a_bare_metal_elf_is_refused_in_one_line() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(root)
        .args([
            "snapshot",
            "--elf",
            "assets/guest/minikernel-sv39.elf",
            "--init",
            "tick",
            "-o",
            "/nonexistent/never-written",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--init tick goes with a Linux kernel") && err.contains("--elf"),
        "{err}"
    );
}

#[test]
fn a_bare_metal_elf_that_does_not_start_at_ram_s_base_is_refused() {
    // guest-asm/tests/interrupts.S links st_pass first and _start after it.
    let out = Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "snapshot",
            "--elf",
            "assets/guest/tests/interrupts.elf",
            "--ecall-symbol",
            "test_main",
            "--loop-symbol",
            "test_main",
            "-o",
            "/nonexistent/never-written",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("its entry is 0x8000009c") && err.contains("RAM's base, 0x80000000"),
        "{err}"
    );
}
