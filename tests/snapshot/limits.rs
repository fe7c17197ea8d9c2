//! Snapshot fields and host settings trapscope cannot use are refused in
//! one line naming the file and field (or the variable), before anything
//! underneath fails in its own words:
//! - RAM larger than the 2047 MiB the emulator loads (one copy is at most
//!   2^31 - 1 bytes), tested with a crafted manifest over a small RAM file;
//! - RAM whose `ram.base + ram.size` wraps past 2^64;
//! - a vector state with VLEN 0 (or another VLEN that is not a power of
//!   two from 128 to 65536);
//! - `trapscope snapshot` with TMPDIR naming no directory, and with a `"`
//!   in TMPDIR (QEMU's monitor takes the RAM dump's path as a quoted
//!   string).
//!
//! The TMPDIR cases boot QEMU: they skip with a printed reason when it is
//! absent (CI sets TRAPSCOPE_REQUIRE_QEMU=1 so absence fails).

use crate::snapshot_util;

use std::path::Path;
use std::process::{Command, Stdio};

use trapscope::scenario::Scenario;
use trapscope::snapshot::format::{Hex, Snapshot};

use snapshot_util::{manifest, poweroff_ram, scenario, scratch, vector, write_snapshot};

fn refused(p: &Path) -> String {
    match Scenario::load(p) {
        Ok(_) => panic!("{} loaded", p.display()),
        Err(e) => e.to_string(),
    }
}

/// Loads `m` (over `ram`) as a snapshot and as a scenario's variant: both
/// must refuse it in one line naming the manifest and every needle.
fn refuses(tag: &str, m: &trapscope::snapshot::format::Manifest, ram: &[u8], needles: &[&str]) {
    let dir = scratch(tag);
    let snap = dir.join("snap");
    write_snapshot(&snap, m, ram);
    let json = snap.join("snapshot.json").display().to_string();
    let e = match Snapshot::load(&snap) {
        Ok(_) => panic!("{tag}: loaded"),
        Err(e) => e.to_string(),
    };
    let p = scenario(&dir, "snap", "");
    let s = refused(&p);
    for err in [&e, &s] {
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains(&json), "names {json}: {err}");
        assert!(!err.contains("emulator"), "no emulator wording: {err}");
        for n in needles {
            assert!(err.contains(n), "expected {n:?} in: {err}");
        }
    }
    assert!(s.starts_with(&format!("{}:5:12: ", p.display())), "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_2_gib_ram_is_refused_at_load_naming_ram_size() {
    // A crafted manifest over 4 KiB of RAM: the size is refused before the
    // RAM file is read.
    let mut m = manifest(&poweroff_ram());
    m.ram.size = Hex(0x8000_0000);
    refuses(
        "ram2g",
        &m,
        &poweroff_ram(),
        &["ram.size 0x80000000", "2047 MiB", "--mem 2047"],
    );
}

#[test]
fn ram_that_wraps_past_2_64_is_refused_naming_ram_base() {
    // Two pages whose digest and size are right, placed at the last page.
    let mut ram = poweroff_ram();
    ram.extend(vec![0u8; 4096]);
    let mut m = manifest(&ram);
    m.ram.base = Hex(0xffff_ffff_ffff_f000);
    m.hart.pc = m.ram.base;
    refuses(
        "ramwrap",
        &m,
        &ram,
        &["ram.base 0xfffffffffffff000", "ram.size 0x2000", "2^56"],
    );
}

#[test]
fn a_vlen_of_0_or_not_a_power_of_two_is_refused_naming_the_field() {
    for vlen in [0, 96] {
        let mut m = manifest(&poweroff_ram());
        m.hart.vector = Some(vector(vlen));
        refuses(
            &format!("vlen{vlen}"),
            &m,
            &poweroff_ram(),
            &[&format!("hart.vector.vlen {vlen}"), "power of two"],
        );
    }
}

fn snapshot_with_tmpdir(tmp: &Path, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "snapshot",
            "--elf",
            "assets/guest/minikernel.elf",
            "--ecall-symbol",
            "user_syscall_ecall",
            "--loop-symbol",
            "bench_timed_loop",
            "--at",
            "3",
            "--mem",
            "8",
            "-o",
        ])
        .arg(out)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_missing_tmpdir_is_named_in_one_line() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("notmp");
    let tmp = dir.join("no-such-dir");
    let out = snapshot_with_tmpdir(&tmp, &dir.join("out"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.starts_with("trapscope: ") && err.contains(" TMPDIR "),
        "{err}"
    );
    assert!(err.contains(&tmp.display().to_string()), "{err}");
    assert!(err.len() < 400, "a short line: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_quote_in_tmpdir_does_not_break_the_ram_dump() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = scratch("quotetmp");
    let tmp = dir.join("a\"b\\c");
    std::fs::create_dir_all(&tmp).unwrap();
    let snap = dir.join("out");
    let out = snapshot_with_tmpdir(&tmp, &snap);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let s = Snapshot::load(&snap).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.manifest.ram.size.0, 8 << 20);
    assert_eq!(s.manifest.init.at, 3);
    let _ = std::fs::remove_dir_all(&dir);
}
