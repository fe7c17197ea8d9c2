//! The comparison and its report on states made by hand: which items are
//! compared and masked, what a difference names, RAM's first difference
//! and counts across the chunks it is read in.

use std::rc::Rc;

use super::compare::{self, Comparison};
use super::names::Names;
use super::{Report, masked};
use crate::machine::Program;
use crate::snapshot::format::{Csr, HartDump, Hex};

fn names() -> Names {
    let elf =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel-sv39.elf");
    Names::unmapped(Rc::new(Program::load(&elf).unwrap()))
}

fn addr(name: &str) -> u64 {
    let elf =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel-sv39.elf");
    Program::load(&elf).unwrap().symbol(name).unwrap().addr
}

fn hart(pc: u64) -> HartDump {
    let csr = |n: u64, name: &str, v: u64| Csr {
        csr: Hex(n),
        name: name.into(),
        value: Hex(v),
    };
    HartDump {
        pc: Hex(pc),
        privilege: "U".into(),
        x: (0..32).map(Hex).collect(),
        f: vec![Hex(0); 32],
        fcsr: Some(Hex(0)),
        csrs: vec![
            csr(0x141, "sepc", pc),
            csr(0x180, "satp", 8 << 60),
            csr(0x344, "mip", 0),
        ],
        vector: None,
    }
}

#[test]
fn masked_are_mip_sip_misa_and_the_counters() {
    for n in [
        0x344, 0x144, 0x301, 0xb00, 0xb02, 0xc00, 0xc01, 0xc02, 0xb83,
    ] {
        assert!(masked(n), "{n:#x}");
    }
    for n in [
        0x100, 0x105, 0x141, 0x180, 0x300, 0x304, 0x305, 0x341, 0x306,
    ] {
        assert!(!masked(n), "{n:#x}");
    }
}

#[test]
fn differences_are_named_in_order_with_their_symbols() {
    let n = names();
    let ecall = addr("user_syscall_ecall");
    let (a, mut b) = (hart(ecall), hart(ecall + 4));
    b.x[10] = Hex(99);
    b.csrs[0].value = Hex(ecall + 4);
    b.csrs[2].value = Hex(0x80);
    let mut c = Comparison::new("QEMU", "trapscope");
    compare::harts(&mut c, &a, &b, &|num| !masked(num), &n);
    let what: Vec<&str> = c.regs.iter().map(|d| d.what.as_str()).collect();
    assert_eq!(what, ["pc", "x10 (a0)", "sepc"], "mip is masked");
    // Named by the function that holds it (the marker is a label in it).
    let off = ecall - addr("syscall");
    assert_eq!(c.regs[0].left, format!("{ecall:#x} (syscall+{off:#x})"));
    assert_eq!(
        c.regs[0].right,
        format!("{:#x} (syscall+{:#x})", ecall + 4, off + 4)
    );
    assert_eq!(
        (c.regs[1].left.as_str(), c.regs[1].right.as_str()),
        ("0xa", "0x63")
    );
    assert_eq!(c.covered.csrs, [0x141, 0x180]);
    assert_eq!(c.covered.gprs, 31);
    assert!(c.covered.fp);
    // Everything compared the first time.
    let mut all = Comparison::new("snapshot", "QEMU");
    compare::harts(&mut all, &a, &b, &|_| true, &n);
    assert!(all.regs.iter().any(|d| d.what == "mip"));
}

#[test]
fn ram_names_its_first_difference_and_counts_across_chunks() {
    let n = names();
    let base = 0x8000_0000;
    let left = vec![0u8; 5 << 20];
    let mut right = left.clone();
    let at = addr("knob_rseq");
    let off = (at - base) as usize;
    right[off] = 7;
    right[off + 1] = 7;
    // One more on another page, in the last chunk.
    right[(4 << 20) + 0x8005] = 1;
    let mut reads = 0;
    let mut read = |a: u64, len: usize| {
        reads += 1;
        let o = (a - base) as usize;
        Ok(right[o..o + len].to_vec())
    };
    let mut c = Comparison::new("QEMU", "trapscope");
    compare::ram(&mut c, base, &left, &mut read, &n).unwrap();
    assert_eq!(reads, 5, "read a chunk (1 MiB) at a time");
    let d = c.ram.clone().unwrap();
    assert_eq!((d.first, d.left, d.right), (at, 0, 7));
    assert_eq!(d.named, format!("{at:#x} (knob_rseq)"));
    assert_eq!((d.bytes, d.pages), (3, 2));
    assert_eq!(c.covered.ram, 5 << 20);
    // The report puts RAM right after the first register.
    c.regs.push(super::Diff {
        what: "x5 (t0)".into(),
        left: "0x1".into(),
        right: "0x2".into(),
    });
    let r = Report {
        booted: "b".into(),
        stop: "s".into(),
        iterations: 4,
        at_snapshot: Comparison::new("snapshot", "QEMU"),
        after: Some(c),
        not_compared: None,
    };
    let lines = r.lines();
    assert!(!r.equal());
    assert!(
        lines[2].starts_with("state at the snapshot point: equal (pc, "),
        "{lines:?}"
    );
    assert_eq!(
        lines[3],
        "after 4 iterations: differs: x5 (t0): QEMU 0x1, trapscope 0x2"
    );
    assert_eq!(
        lines[4],
        format!(
            "  RAM at {at:#x} (knob_rseq): QEMU 0x00, trapscope 0x07 (3 bytes in 2 pages of 5 MiB differ)"
        )
    );
    assert_eq!(lines[5], "masked after the iterations:");
}

#[test]
fn a_run_that_ends_elsewhere_is_a_difference_and_nothing_else_is_compared() {
    let mut c = Comparison::new("QEMU", "trapscope");
    c.ended = Some("it did not get there".into());
    assert!(!c.equal());
    let r = Report {
        booted: "b".into(),
        stop: "s".into(),
        iterations: 2,
        at_snapshot: Comparison::new("snapshot", "QEMU"),
        after: Some(c),
        not_compared: None,
    };
    assert_eq!(
        r.lines()[3],
        "after 2 iterations: differs: trapscope did not reach the point QEMU reached: it did not get there"
    );
    let r = Report { after: None, ..r };
    assert!(!r.equal(), "not compared is not equal");
    assert!(r.lines()[3].contains("not compared"));
}
