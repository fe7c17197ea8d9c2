//! A snapshot's vector CSRs and fcsr are the hart's, checked against QEMU
//! itself: a bare-metal guest (assembled here) sets known vl, vtype,
//! vstart, vcsr, frm and fflags, then loops on an `ecall` whose M-mode
//! handler reads them back with `csrr` into s2..s6. The snapshot is taken
//! before an ecall; QEMU then runs on to the next one, and what the guest
//! read right after the stop point must be what the snapshot recorded.
//! trapscope, resumed from the snapshot, must read the same.
//!
//! The first stop has vl = 5 at e16/m2 (vtype 0x9), vstart 3, vcsr 5
//! (vxrm 2, vxsat 1), frm 3 and fflags 0x15 (fcsr 0x75); the second has
//! vill from `vsetvl` with the reserved LMUL 4 (vtype bit 63, vl 0),
//! vstart 2, vcsr 2 (vxrm 1), frm 1 and fflags 3 (fcsr 0x23). QEMU runs
//! with V at VLEN 256 (x60's, the core the resumed run uses).
//!
//! Needs QEMU and riscv64-linux-gnu binutils (skips with a reason without
//! them; CI sets TRAPSCOPE_REQUIRE_QEMU=1 and TRAPSCOPE_REQUIRE_GUEST_AS=1).

use crate::snapshot_util;

use std::path::{Path, PathBuf};
use std::process::Command;

use trapscope::machine::{Outcome, Until};
use trapscope::qemu::take::{Booted, Config, Guest};
use trapscope::scenario::Scenario;
use trapscope::session::{RunOpts, build_machine};
use trapscope::snapshot::format::{HartDump, Snapshot};

const GUEST: &str = r#"
	.option arch, +v
	.text
	.globl _start
_start:
	la	t0, trap
	csrw	mtvec, t0
	li	t0, (1 << 9) | (1 << 13)	# VS and FS Initial
	csrs	mstatus, t0
	li	t0, 5
	vsetvli	t1, t0, e16, m2, tu, mu
	csrwi	vstart, 3
	csrwi	vcsr, 5
	csrwi	frm, 3
	csrwi	fflags, 0x15
	li	s10, 0
	.globl snap_loop
snap_loop:
	.globl snap_ecall
snap_ecall:
	ecall
	bnez	s10, snap_loop
	li	s10, 1
	li	t2, 4				# vlmul 100: reserved, so vill
	li	t0, 7
	vsetvl	t1, t0, t2
	csrwi	vstart, 2
	csrwi	vcsr, 2
	csrwi	frm, 1
	csrwi	fflags, 3
	j	snap_loop

	.balign 4
trap:
	csrr	s2, vl
	csrr	s3, vtype
	csrr	s4, vstart
	csrr	s5, vcsr
	csrr	s6, fcsr
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	mret
"#;

fn build_guest(dir: &Path) -> PathBuf {
    let src = dir.join("g.S");
    let obj = dir.join("g.o");
    let out = dir.join("g.elf");
    std::fs::write(&src, GUEST).unwrap();
    let st = Command::new("riscv64-linux-gnu-as")
        .args(["-march=rv64gcv", "-o"])
        .arg(&obj)
        .arg(&src)
        .status()
        .unwrap();
    assert!(st.success(), "as failed");
    let st = Command::new("riscv64-linux-gnu-ld")
        .args(["-Ttext=0x80000000", "-e", "_start", "-o"])
        .arg(&out)
        .arg(&obj)
        .status()
        .unwrap();
    assert!(st.success(), "ld failed");
    out
}

/// What the guest's handler read: vl, vtype, vstart, vcsr, fcsr (s2..s6).
fn read_back(h: &HartDump) -> [u64; 5] {
    std::array::from_fn(|i| h.x[18 + i].0)
}

/// What the snapshot recorded, in the same order.
fn recorded(h: &HartDump) -> [u64; 5] {
    let v = h.vector.as_ref().expect("vector state");
    [
        v.vl.0,
        v.vtype.0,
        v.vstart.0,
        v.vcsr.0,
        h.fcsr.expect("fcsr").0,
    ]
}

/// trapscope from `snap`, on to the next ecall: what its handler read.
fn resumed(dir: &Path, snap: &str) -> [u64; 5] {
    let p = dir.join(format!("{snap}.toml"));
    std::fs::write(
        &p,
        format!(
            "title = \"t\"\npatch = \"p\"\ncores = [\"x60\"]\n[[variants]]\nname = \"snap\"\nsnapshot = \"{snap}\"\n[measure]\niteration = \"snap_loop\"\niterations = 1_000_000\n"
        ),
    )
    .unwrap();
    let s = Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOpts {
        core: Some(s.cores[0].clone()),
        ..RunOpts::default()
    };
    let mut m = build_machine(&s, &s.variants[0], &opts).unwrap();
    let ecall = m.program.symbol("snap_ecall").unwrap().addr;
    m.end_at(ecall, 2).unwrap();
    let o = m.run(&Until {
        max_insns: Some(10_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::Exited(0), "trapscope reaches the ecall again");
    let g = m.gprs();
    std::array::from_fn(|i| g[18 + i])
}

#[test]
fn vector_csrs_and_fcsr_are_what_the_guest_reads_after_the_stop() {
    if !snapshot_util::qemu_or_skip() || !snapshot_util::binutils_or_skip() {
        return;
    }
    let dir = snapshot_util::scratch("vcsrs");
    let cfg = Config {
        guest: Guest::Elf(build_guest(&dir)),
        at: 1,
        ecall_symbol: "snap_ecall".into(),
        loop_symbol: "snap_loop".into(),
        vlen: Some(256),
        mem_mib: 8,
        append: String::new(),
        boot_timeout: std::time::Duration::from_secs(30),
        ticks: false,
        reproducible: true,
    };
    let mut note = |l: &str| eprintln!("{l}");
    let mut b = Booted::start(&cfg, &mut note).unwrap();
    let mut snaps = Vec::new();
    for (at, name, want) in [
        (1, "first", [5, 0x9, 3, 5, 0x75]),
        (2, "vill", [0, 1 << 63, 2, 2, 0x23]),
    ] {
        b.run_to(at, &mut note).unwrap();
        b.quiesce().unwrap();
        let snap = dir.join(name);
        b.save(&snap).unwrap();
        let m = Snapshot::load(&snap).unwrap().manifest;
        assert_eq!(m.hart.vector.as_ref().map(|v| v.vlen), Some(256));
        // QEMU runs on over the ecall: its handler's csrr is the oracle.
        b.run_to(at + 1, &mut note).unwrap();
        let q = read_back(&b.hart().unwrap());
        assert_eq!(recorded(&m.hart), q, "{name}: snapshot vs csrr in QEMU");
        assert_eq!(q, want, "{name}: what the guest set (module comment)");
        snaps.push((name, q));
    }
    drop(b);
    for (name, q) in snaps {
        assert_eq!(
            resumed(&dir, name),
            q,
            "{name}: trapscope from the snapshot"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
