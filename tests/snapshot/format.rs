//! A scenario variant's `snapshot = "DIR"` refuses what is not a snapshot
//! this trapscope wrote, naming what is wrong, at the scenario's
//! file:line:col (docs/reference/cli.md, "Exit status"). The snapshots are made by hand
//! (snapshot_util), so no QEMU is needed; the vmlinux build-id cases need
//! riscv64-linux-gnu binutils (skipped with a reason without them, failed
//! under TRAPSCOPE_REQUIRE_GUEST_AS=1).

use crate::snapshot_util;

use std::path::Path;

use trapscope::machine::{Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{RunOpts, build_machine};
use trapscope::snapshot::format::{self, Manifest};

use snapshot_util::{manifest, poweroff_ram, scenario, scratch, vector, write_snapshot};

/// RAM, extensions, vector state and vmlinux that do not fit.
mod contents;

/// The error of loading `s.toml` (panics if it loads).
fn refused(p: &Path) -> String {
    match Scenario::load(p) {
        Ok(_) => panic!("{} loaded", p.display()),
        Err(e) => e.to_string(),
    }
}

/// Asserts `err` is one line at `s.toml:line:col` naming every needle.
fn at(err: &str, p: &Path, line: usize, col: usize, needles: &[&str]) {
    let loc = format!("{}:{line}:{col}: ", p.display());
    assert!(err.starts_with(&loc), "expected {loc:?} first: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "expected {n:?} in: {err}");
    }
}

/// A scratch dir with a valid snapshot `snap` (made from `m`) and s.toml naming it.
fn with_snapshot(tag: &str, m: &Manifest) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = scratch(tag);
    let ram = poweroff_ram();
    write_snapshot(&dir.join("snap"), m, &ram);
    let s = scenario(&dir, "snap", "");
    (dir, s)
}

#[test]
fn a_hand_made_snapshot_loads_and_runs_from_its_pc() {
    // The control for every refusal below: the same directory, intact,
    // loads and runs its four instructions to the test device's poweroff.
    let (dir, p) = with_snapshot("ok", &manifest(&poweroff_ram()));
    let s = Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    let v = &s.variants[0];
    assert_eq!(v.resume.as_ref().map(|r| r.pc), Some(snapshot_util::BASE));
    let mut m = build_machine(&s, v, &RunOpts::default()).unwrap();
    let o = m.run(&Until {
        max_insns: Some(1000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::Exited(0), "0x5555 to the test device is a pass");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_format_version_is_refused_naming_both_versions() {
    for v in [0, format::VERSION + 1] {
        let mut m = manifest(&poweroff_ram());
        m.version = v;
        m.made_by = "trapscope 9.9.9".into();
        let (dir, p) = with_snapshot(&format!("ver{v}"), &m);
        at(
            &refused(&p),
            &p,
            5,
            12,
            &[
                &format!("snapshot format version {v}"),
                "trapscope 9.9.9",
                &format!("reads version {}", format::VERSION),
                "take the snapshot again",
            ],
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_version_that_is_not_a_number_or_is_missing_is_named_as_it_is() {
    let (dir, p) = with_snapshot("vertext", &manifest(&poweroff_ram()));
    let json = dir.join("snap").join(format::MANIFEST);
    let text = std::fs::read_to_string(&json).unwrap();
    let line = format!("\"version\": {},", format::VERSION);
    assert!(text.contains(&line), "{text}");
    std::fs::write(&json, text.replace(&line, "\"version\": \"1\",")).unwrap();
    at(&refused(&p), &p, 5, 12, &["snapshot format version \"1\""]);
    std::fs::write(&json, text.replace(&line, "")).unwrap();
    at(&refused(&p), &p, 5, 12, &["snapshot format version (none)"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_hart_fields_are_refused_naming_the_field() {
    let ram = poweroff_ram();
    let mut m = manifest(&ram);
    m.hart.privilege = "H".into();
    let (dir, p) = with_snapshot("fields", &m);
    at(
        &refused(&p),
        &p,
        5,
        12,
        &["hart.privilege 'H' is not U, S or M"],
    );
    let mut m = manifest(&ram);
    m.hart.x.truncate(5);
    write_snapshot(&dir.join("snap"), &m, &ram);
    at(&refused(&p), &p, 5, 12, &["hart.x has 5 registers, not 32"]);
    let mut m = manifest(&ram);
    m.ram.size = format::Hex(0x1001);
    write_snapshot(&dir.join("snap"), &m, &ram);
    at(
        &refused(&p),
        &p,
        5,
        12,
        &["ram.size 0x1001", "whole number of pages"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn paging_other_than_sv39_is_refused_naming_the_mode() {
    // satp.MODE (priv spec §4.1.11): 8 Sv39, 9 Sv48, 10 Sv57.
    let satp = |mode: u64| format::Csr {
        csr: format::Hex(0x180),
        name: "satp".into(),
        value: format::Hex(mode << 60 | 0x80080),
    };
    for (mode, name) in [(9, "Sv48"), (10, "Sv57")] {
        let mut m = manifest(&poweroff_ram());
        m.hart.csrs.push(satp(mode));
        let (dir, p) = with_snapshot(&format!("satp{mode}"), &m);
        at(
            &refused(&p),
            &p,
            5,
            12,
            &[
                &format!("satp selects {name} paging"),
                "Sv39 only",
                "no4lvl",
            ],
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    // Sv39 is trapscope's own (the M-mode pc runs untranslated).
    let mut m = manifest(&poweroff_ram());
    m.hart.csrs.push(satp(8));
    let (dir, p) = with_snapshot("satp8", &m);
    Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_foreign_manifest_is_refused_naming_what_it_is() {
    let (dir, p) = with_snapshot("foreign", &manifest(&poweroff_ram()));
    let json = dir.join("snap").join(format::MANIFEST);
    let cases: [(&[u8], &[&str]); 6] = [
        // Another tool's format field.
        (
            br#"{"format": "qemu-savevm", "version": 1}"#,
            &["format 'qemu-savevm' is not a trapscope snapshot"],
        ),
        // JSON without a format field.
        (
            br#"{"name": "x", "ram": "ram.bin"}"#,
            &["not a trapscope snapshot manifest", "no \"format\" field"],
        ),
        (b"[1, 2, 3]", &["no \"format\" field"]),
        // Text that is not JSON.
        (
            b"format = \"trapscope-snapshot\"\n",
            &["not a trapscope snapshot manifest", "not JSON"],
        ),
        // Bytes that are not text at all.
        (
            &[0x89, b'P', b'N', b'G', 0xff, 0xfe, 0x00, 0x01, 0x80],
            &["not UTF-8", "not a trapscope snapshot manifest"],
        ),
        // The right format and version, but fields missing.
        (
            br#"{"format": "trapscope-snapshot", "version": 1}"#,
            &["malformed snapshot manifest", "missing field"],
        ),
    ];
    for (bytes, needles) in cases {
        std::fs::write(&json, bytes).unwrap();
        let e = refused(&p);
        at(&e, &p, 5, 12, needles);
        assert!(e.contains(format::MANIFEST), "names the file: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_a_missing_directory_and_a_directory_without_a_manifest_are_refused() {
    let dir = scratch("notdir");
    let elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel-sv39.elf");
    let p = scenario(&dir, &elf.display().to_string(), "");
    at(
        &refused(&p),
        &p,
        5,
        12,
        &[
            "minikernel-sv39.elf",
            "a file, not a snapshot directory",
            "elf =",
        ],
    );
    let p = scenario(&dir, "nowhere", "");
    at(
        &refused(&p),
        &p,
        5,
        12,
        &[
            "nowhere",
            "no such snapshot directory",
            "trapscope snapshot",
        ],
    );
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let p = scenario(&dir, "empty", "");
    at(
        &refused(&p),
        &p,
        5,
        12,
        &["not a snapshot directory", "no snapshot.json"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_or_foreign_init_elf_is_refused() {
    let (dir, p) = with_snapshot("init", &manifest(&poweroff_ram()));
    let init = dir.join("snap").join(format::INIT_FILE);
    std::fs::remove_file(&init).unwrap();
    at(&refused(&p), &p, 5, 12, &["init.elf", "cannot read"]);
    std::fs::write(&init, b"#!/bin/sh\n").unwrap();
    at(&refused(&p), &p, 5, 12, &["init.elf", "not an ELF file"]);
    let _ = std::fs::remove_dir_all(&dir);
}
