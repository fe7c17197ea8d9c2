//! `trapscope snapshot -o DIR` never writes through a link: files of an
//! earlier snapshot that are links are replaced (and a link where its
//! `init-src/` goes is removed), a DIR that is a link is
//! refused, and the scratch directory and device-tree dump are never at a
//! name someone could plant a link at (output.rs). Needs QEMU (skipped
//! without, failing under TRAPSCOPE_REQUIRE_QEMU=1).

use crate::snapshot_util;

use std::path::Path;
use std::process::{Command, Stdio};

use snapshot_util::{minikernel_sv39, qemu_or_skip, scratch};
use trapscope::qemu::take::Booted;
use trapscope::snapshot::format::{self, Snapshot};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const KEEP: &str = "the victim's own bytes\n";

fn snapshot(out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(ROOT)
        .args(["snapshot", "--elf", "assets/guest/minikernel-sv39.elf"])
        .args(["--ecall-symbol", "user_syscall_ecall"])
        .args(["--loop-symbol", "bench_timed_loop", "--at", "2", "-o"])
        .arg(out)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn links_in_the_snapshot_directory_are_replaced_not_written_through() {
    if !qemu_or_skip() {
        return;
    }
    let dir = scratch("links-files");
    let out = dir.join("snap");
    std::fs::create_dir_all(&out).unwrap();
    let names = [
        format::RAM_FILE,
        format::MANIFEST,
        format::INIT_FILE,
        format::CONSOLE_FILE,
    ];
    for n in names {
        let victim = dir.join(format!("victim-{n}"));
        std::fs::write(&victim, KEEP).unwrap();
        std::os::unix::fs::symlink(&victim, out.join(n)).unwrap();
    }
    // The stored sources' directory: a link to another directory there is
    // removed, and nothing is written into its target.
    let victim_dir = dir.join("victim-src");
    std::fs::create_dir(&victim_dir).unwrap();
    std::fs::write(victim_dir.join("kernel.S"), KEEP).unwrap();
    std::os::unix::fs::symlink(&victim_dir, out.join(format::INIT_SRC_DIR)).unwrap();
    let o = snapshot(&out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for n in names {
        let victim = dir.join(format!("victim-{n}"));
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            KEEP,
            "{n}'s target"
        );
        let m = std::fs::symlink_metadata(out.join(n)).unwrap();
        assert!(m.is_file(), "{n} is a file of its own now");
    }
    assert_eq!(std::fs::read_dir(&victim_dir).unwrap().count(), 1);
    assert_eq!(
        std::fs::read_to_string(victim_dir.join("kernel.S")).unwrap(),
        KEEP
    );
    let m = std::fs::symlink_metadata(out.join(format::INIT_SRC_DIR)).unwrap();
    assert!(m.is_dir(), "init-src is a directory of its own now");
    // It is a snapshot, and nothing else is in the directory.
    Snapshot::load(&out).unwrap();
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), names.len() + 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_snapshot_directory_that_is_a_link_is_refused() {
    if !qemu_or_skip() {
        return;
    }
    let dir = scratch("links-dir");
    let real = dir.join("real");
    std::fs::create_dir_all(&real).unwrap();
    let link = dir.join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = snapshot(&link);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("symbolic link") && err.contains("-o "),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&real).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scratch names trapscope used to take, `TMPDIR/trapscope-snapshot-
/// PID-N` and `TMPDIR/trapscope-dtb-PID-N.dtb`, planted as links by
/// "another user": a snapshot taken in this process uses none of them.
#[test]
fn planted_scratch_names_are_not_used() {
    if !qemu_or_skip() {
        return;
    }
    let dir = scratch("links-scratch");
    let victim_dir = dir.join("victim-dir");
    std::fs::create_dir_all(&victim_dir).unwrap();
    let victim_file = dir.join("victim-file");
    std::fs::write(&victim_file, KEEP).unwrap();
    let tmp = std::env::temp_dir();
    let pid = std::process::id();
    let mut planted = Vec::new();
    for n in 0..8 {
        let d = tmp.join(format!("trapscope-snapshot-{pid}-{n}"));
        let f = tmp.join(format!("trapscope-dtb-{pid}-{n}.dtb"));
        let _ = std::fs::remove_file(&d);
        let _ = std::fs::remove_file(&f);
        std::os::unix::fs::symlink(&victim_dir, &d).unwrap();
        std::os::unix::fs::symlink(&victim_file, &f).unwrap();
        planted.extend([d, f]);
    }
    let cfg = minikernel_sv39(2);
    let r = (|| {
        let mut quiet = |_: &str| {};
        let mut b = Booted::start(&cfg, &mut quiet)?;
        b.run_to(cfg.at, &mut quiet)?;
        b.quiesce()?;
        b.save(&dir.join("snap"))
    })();
    for p in &planted {
        let _ = std::fs::remove_file(p);
    }
    r.unwrap();
    assert_eq!(std::fs::read_dir(&victim_dir).unwrap().count(), 0);
    assert_eq!(std::fs::read_to_string(&victim_file).unwrap(), KEEP);
    Snapshot::load(&dir.join("snap")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
