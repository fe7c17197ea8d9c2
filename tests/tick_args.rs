//! `--init tick`'s argument checks, which need no QEMU: a bare-metal ELF
//! has no /init to spin, so the pair is refused in one line before
//! anything boots.

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
