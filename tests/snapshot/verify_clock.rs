//! `verify` on a loop that reads the clock: QEMU's clock under `-icount
//! shift=0` counts instructions, and verify runs trapscope on the same
//! count from the snapshot point (QEMU's minstret there), so the times,
//! cycles and instrets that guest-asm/tests/clock_loop.S reads into its
//! registers and RAM come out equal after 200 iterations. On the model's
//! clock they differ at the first read.

use crate::common;
use crate::snapshot_util;

use std::process::Command;

use common::scratch;

fn trapscope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_loop_that_reads_the_clock_verifies_on_qemu_s_counted_clock() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let d = scratch("verify-clock");
    let snap = d.join("snap");
    let s = snap.to_str().unwrap();
    let o = trapscope(&[
        "snapshot",
        "--elf",
        "assets/guest/tests/clock_loop.elf",
        "--ecall-symbol",
        "clock_loop",
        "--loop-symbol",
        "clock_loop",
        "--at",
        "5",
        "-o",
        s,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = trapscope(&["verify", s, "--iterations", "200"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("after 200 iterations: equal"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}
