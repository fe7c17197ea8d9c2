//! `trapscope snapshot --at N` stops before exactly the N-th execution of
//! the loop's ecall, on trapscope's minikernel booted in QEMU (the plain
//! build, 8 MiB of RAM: the smallest guest the snapshot path takes).
//!
//! The minikernel's user loop (guest-asm/minikernel/user.S, `main`) keeps
//! its count in s1 (x9): 10 warm-up calls count s1 = 0..9, then the timed
//! loop starts again from 0. Before the N-th ecall s1 therefore holds N - 1
//! for N <= 10 and N - 11 for 10 < N <= 110 (the hand count every
//! expectation below is taken from).
//!
//! Skips with a printed reason when QEMU is absent; CI sets
//! TRAPSCOPE_REQUIRE_QEMU=1 so absence fails.

use crate::snapshot_util;

use std::path::PathBuf;
use std::time::Instant;

use trapscope::machine::Program;
use trapscope::qemu::take::{self, Booted, Config, Guest};
use trapscope::snapshot::format::Snapshot;

fn elf() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf")
}

fn config(at: u64) -> Config {
    Config {
        guest: Guest::Elf(elf()),
        at,
        ecall_symbol: "user_syscall_ecall".into(),
        loop_symbol: "bench_timed_loop".into(),
        vlen: None,
        mem_mib: 8,
        append: String::new(),
        boot_timeout: std::time::Duration::from_secs(60),
        ticks: false,
        reproducible: true,
    }
}

/// s1 before the `n`-th user ecall (see the module comment).
fn s1_before(n: u64) -> u64 {
    if n <= 10 { n - 1 } else { n - 11 }
}

fn symbol(name: &str) -> u64 {
    let bytes = std::fs::read(elf()).unwrap();
    let p = Program::parse(&elf(), &bytes).unwrap();
    p.symbol(name).unwrap_or_else(|| panic!("{name}")).addr
}

fn le(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a[..b.len().min(8)].copy_from_slice(&b[..b.len().min(8)]);
    u64::from_le_bytes(a)
}

/// The mechanism forced: at the 5th ecall an S timer interrupt is made
/// pending and enabled (mip.STIP and mie.STIE; the firmware delegates it,
/// fw.S), and QEMU's single step is told to take interrupts
/// (`Qqemu.sstep=1`). The step over the 5th ecall then takes the
/// interrupt instead (the kernel's do_irq counts it in stat_timer_irq and
/// stops the timer, clearing STIP through the firmware) and returns to the
/// same ecall. A count of every breakpoint stop would call that the 6th
/// and stop one ecall early; the stop before the 10th must find s1 = 9.
#[test]
fn a_step_that_takes_an_interrupt_does_not_count_the_ecall() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    // QEMU's own clock: under -icount, QEMU 7.2's gdbstub never answers a
    // step made to take an interrupt (snapshots' steps never are: the
    // default sstep flags mask interrupts).
    let cfg = Config {
        ticks: false,
        reproducible: false,
        ..config(5)
    };
    let mut note = |l: &str| eprintln!("{l}");
    let mut b = Booted::start(&cfg, &mut note).unwrap();
    b.run_to(5, &mut note).unwrap();
    assert_eq!(b.hart().unwrap().x[9].0, s1_before(5));
    let map = b.gdb.registers().unwrap();
    let reg = |n: &str| map.get(n).unwrap_or_else(|| panic!("{n}")).regnum;
    let mie = le(&b.gdb.read_reg(reg("mie")).unwrap());
    b.gdb
        .write_reg(reg("mie"), &(mie | 1 << 5).to_le_bytes())
        .unwrap();
    let mip = le(&b.gdb.read_reg(reg("mip")).unwrap());
    b.gdb
        .write_reg(reg("mip"), &(mip | 1 << 5).to_le_bytes())
        .unwrap();
    b.gdb.qemu_sstep_bits(1).unwrap();
    b.run_to(10, &mut note).unwrap();
    let ticks = le(&b.gdb.read_mem(symbol("stat_timer_irq"), 8).unwrap());
    assert_eq!(ticks, 1, "the step took the timer interrupt");
    let h = b.hart().unwrap();
    assert_eq!(h.pc.0, symbol("user_syscall_ecall"));
    assert_eq!(
        h.x[9].0,
        s1_before(10),
        "stopped before the 10th ecall, as counted"
    );
    assert_eq!(b.hits, 10);
}

/// Twenty snapshots in a row, each through `take` (the whole of
/// `trapscope snapshot`), stop before the 100th ecall: s1 = 89 in every
/// one, and every one records at = 100.
#[test]
fn twenty_snapshots_in_a_row_stop_at_the_same_ecall() {
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = snapshot_util::scratch("exact20");
    let ecall = symbol("user_syscall_ecall");
    let start = Instant::now();
    for i in 0..20 {
        let out = dir.join(format!("s{i}"));
        take::take(&config(100), &out, &mut |_| {}).unwrap_or_else(|e| panic!("#{i}: {e}"));
        let s = Snapshot::load(&out).unwrap();
        let m = &s.manifest;
        assert_eq!(m.init.at, 100, "#{i}");
        assert_eq!(m.hart.pc.0, ecall, "#{i}");
        assert_eq!(m.hart.x[9].0, s1_before(100), "#{i}: s1");
        assert_eq!(m.init.counter, None, "a bare ELF records no counter");
        let _ = std::fs::remove_dir_all(&out);
    }
    eprintln!("20 snapshots in {:.1} s", start.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&dir);
}
