//! Each work init's setup (split from init_work.rs, whose ELF readers and
//! uapi constants it uses): a static riscv64 executable calling
//! `init_setup` before its first getppid, whose system calls carry the
//! numbers and arguments of the uapi headers: no_new_privs then the seccomp
//! filter, SUD turned on with an allow selector and no exempt range, and an
//! rseq area 32-byte aligned and not yet written by the kernel.

use super::*;

#[test]
fn each_work_init_is_a_static_riscv64_executable_that_sets_up_before_its_first_getppid() {
    for name in WORK_INITS {
        let raw = std::fs::read(init_path(name)).unwrap();
        // ELF header (System V gABI): ELFCLASS64, little-endian, ET_EXEC (2),
        // EM_RISCV (243).
        assert_eq!(&raw[..4], b"\x7fELF", "{name}");
        assert_eq!((raw[4], raw[5]), (2, 1), "{name}");
        assert_eq!(u16::from_le_bytes([raw[16], raw[17]]), 2, "{name}: ET_EXEC");
        assert_eq!(
            u16::from_le_bytes([raw[18], raw[19]]),
            243,
            "{name}: EM_RISCV"
        );
        let p = Program::parse(&init_path(name), &raw).unwrap();
        assert_eq!(p.entry, addr(&p, "_start"), "{name}");
        assert!(p.entry < 0x8000_0000, "{name}: not in user space");
        for s in ["init_loop", "init_ecall", "init_setup", "init_fail"] {
            assert!(p.is_mapped_exec(addr(&p, s)), "{name}: {s} is not code");
        }
        // main, straight on: the call to init_setup comes before main's own
        // first ecall (the getppid that learns the parent).
        let (mut pc, mut called) = (addr(&p, "main"), false);
        loop {
            let i = insn_at(&p, pc);
            if i.op == Op::Jal && i.rd == 1 {
                called |= pc.wrapping_add(i.imm as u64) == addr(&p, "init_setup");
            }
            if i.op == Op::Ecall {
                break;
            }
            pc += u64::from(i.len);
        }
        assert!(
            called,
            "{name}: main does not call init_setup before getppid"
        );
    }
}

#[test]
fn the_seccomp_setups_set_no_new_privs_then_install_the_programs_fprog() {
    for name in WORK_INITS.iter().filter(|n| n.starts_with("seccomp")) {
        let p = load(name);
        let calls = ecalls(&p, addr(&p, "init_setup"), 2);
        // prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0): seccomp(2) refuses a filter
        // without it (or CAP_SYS_ADMIN).
        assert_eq!(
            calls[0],
            [SYS_PRCTL, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0].map(Some),
            "{name}"
        );
        // seccomp(SECCOMP_SET_MODE_FILTER, 0, &init_fprog).
        let c = calls[1];
        assert_eq!(c[0], Some(SYS_SECCOMP), "{name}");
        assert_eq!(c[1], Some(SECCOMP_SET_MODE_FILTER), "{name}");
        assert_eq!(c[2], Some(0), "{name}: flags");
        assert_eq!(c[3], Some(addr(&p, "init_fprog")), "{name}");
        assert_eq!(
            insn_at(&p, addr(&p, "init_seccomp_ecall")).op,
            Op::Ecall,
            "{name}"
        );
    }
}

#[test]
fn the_sud_setup_turns_dispatch_on_with_an_allow_selector_and_no_exempt_range() {
    let p = load("sud");
    let sel = addr(&p, "init_sud_selector");
    let calls = ecalls(&p, addr(&p, "init_setup"), 1);
    // prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, offset 0,
    // len 0, &selector): ip - 0 < 0 never holds, so no call is exempt.
    assert_eq!(
        calls[0],
        [
            SYS_PRCTL,
            PR_SET_SYSCALL_USER_DISPATCH,
            PR_SYS_DISPATCH_ON,
            0,
            0,
            sel
        ]
        .map(Some)
    );
    // SYSCALL_DISPATCH_FILTER_ALLOW (0), in writable data.
    assert_eq!(bytes(&p, sel, 1), [0]);
    assert!(
        p.segments
            .iter()
            .any(|s| s.write && sel >= s.vaddr && sel < s.vaddr + s.memsz)
    );
    assert_eq!(insn_at(&p, addr(&p, "init_sud_ecall")).op, Op::Ecall);
}

#[test]
fn the_rseq_setup_registers_a_32_byte_aligned_area_the_kernel_has_not_written() {
    let p = load("rseq");
    let area = addr(&p, "init_rseq_area");
    let calls = ecalls(&p, addr(&p, "init_setup"), 1);
    let c = calls[0];
    // rseq(&area, 32, 0, sig): ORIG_RSEQ_SIZE is 32, and a 32-byte area
    // must be 32-aligned (sys_rseq's check).
    assert_eq!(c[0], Some(SYS_RSEQ));
    assert_eq!(c[1], Some(area));
    assert_eq!(c[2], Some(32));
    assert_eq!(c[3], Some(0), "flags: register");
    assert!(c[4].is_some(), "a signature");
    assert_eq!(area % 32, 0);
    // cpu_id_start 0, cpu_id RSEQ_CPU_ID_UNINITIALIZED (-1) until the
    // kernel's notify-resume writes it (the setup checks it did), rseq_cs 0
    // (no critical section), and the rest 0.
    let b = bytes(&p, area, 32);
    assert_eq!(&b[0..4], [0; 4]);
    assert_eq!(&b[4..8], [0xff; 4]);
    assert!(b[8..].iter().all(|&x| x == 0));
    assert_eq!(insn_at(&p, addr(&p, "init_rseq_ecall")).op, Op::Ecall);
}
