//! The /init programs that set up generic entry's syscall work before the
//! getppid loop (guest-asm/init/seccomp*.S, sud.S, rseq.S; seed 002), checked
//! without a kernel: each is a static riscv64 executable whose `main` calls
//! `init_setup` before its first getppid; the setup's system calls carry the
//! numbers and arguments of the uapi headers (decoded from the code with
//! trapscope's decoder, following the success path); the seccomp filters,
//! read out of the ELF's data as `struct sock_fprog` and run by a small
//! classic-BPF evaluator written here from filter.h's semantics, pass the
//! kernel's filter checks and give the verdicts each program promises;
//! and the loop still makes exactly one ecall per iteration, at
//! `init_ecall`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use trapscope::isa::{self, AluOp, Insn, Op};
use trapscope::machine::Program;

/// Every init with a setup before its loop.
const WORK_INITS: [&str; 7] = [
    "seccomp",
    "seccomp-arg1",
    "seccomp-arg64",
    "seccomp-allow",
    "seccomp-errno",
    "sud",
    "rseq",
];

// System call numbers: asm-generic/unistd.h (riscv64's table).
const SYS_WRITE: u64 = 64;
const SYS_EXIT: u64 = 93;
const SYS_EXIT_GROUP: u64 = 94;
const SYS_PRCTL: u64 = 167;
const SYS_GETPPID: u64 = 173;
const SYS_SECCOMP: u64 = 277;
const SYS_RSEQ: u64 = 293;
// prctl.h, seccomp.h, audit.h.
const PR_SET_NO_NEW_PRIVS: u64 = 38;
const PR_SET_SYSCALL_USER_DISPATCH: u64 = 59;
const PR_SYS_DISPATCH_ON: u64 = 1;
const SECCOMP_SET_MODE_FILTER: u64 = 1;
const SECCOMP_RET_ALLOW: u32 = 0x7fff_0000;
const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;
const SECCOMP_RET_ACTION_FULL: u32 = 0xffff_0000;
const AUDIT_ARCH_RISCV64: u32 = 0xc000_00f3;
const EPERM: u32 = 1;

fn init_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/init")
        .join(format!("{name}.elf"))
}

fn load(name: &str) -> Program {
    Program::load(&init_path(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn addr(p: &Program, sym: &str) -> u64 {
    p.symbol(sym)
        .unwrap_or_else(|| panic!("{}: no symbol {sym}", p.path.display()))
        .addr
}

fn insn_at(p: &Program, pc: u64) -> Insn {
    let bytes = p
        .text_bytes(pc, 4)
        .unwrap_or_else(|| panic!("{}: no code at {pc:#x}", p.path.display()));
    isa::decode(bytes).unwrap_or_else(|| panic!("{}: undecodable at {pc:#x}", p.path.display()))
}

fn bytes(p: &Program, at: u64, len: usize) -> Vec<u8> {
    let b = p
        .text_bytes(at, len)
        .unwrap_or_else(|| panic!("nothing at {at:#x}"));
    assert_eq!(b.len(), len, "{at:#x}: only {} bytes", b.len());
    b.to_vec()
}

fn u64_at(p: &Program, at: u64) -> u64 {
    u64::from_le_bytes(bytes(p, at, 8).try_into().unwrap())
}

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

/// The registers a7 and a0..a4 at each of the first `n` ecalls from `start`,
/// following the code straight on (every branch not taken: the setups branch
/// only to report an error). Tracks `li`/`la` (lui, auipc, addi, addiw);
/// anything else written makes its register unknown (None), as does an
/// ecall for a0.
fn ecalls(p: &Program, start: u64, n: usize) -> Vec<[Option<u64>; 6]> {
    let mut x: [Option<u64>; 32] = [None; 32];
    x[0] = Some(0);
    let (mut pc, mut out) = (start, Vec::new());
    while out.len() < n {
        let i = insn_at(p, pc);
        let rs1 = x[usize::from(i.rs1)];
        let val = match i.op {
            Op::Lui => Some(i.imm as u64),
            Op::Auipc => Some(pc.wrapping_add(i.imm as u64)),
            Op::AluImm(AluOp::Add) => rs1.map(|v| v.wrapping_add(i.imm as u64)),
            Op::AluImm(AluOp::AddW) => {
                rs1.map(|v| i64::from(v.wrapping_add(i.imm as u64) as i32) as u64)
            }
            _ => None,
        };
        match i.op {
            Op::Ecall => {
                out.push([x[17], x[10], x[11], x[12], x[13], x[14]]);
                x[10] = None;
            }
            Op::Jal | Op::Jalr => panic!("{}: a call or jump at {pc:#x}", p.path.display()),
            Op::Branch(_) | Op::Store { .. } => {}
            _ if i.rd != 0 => x[usize::from(i.rd)] = val,
            _ => {}
        }
        pc += u64::from(i.len);
    }
    out
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

/// struct seccomp_data (seccomp.h): nr, arch, instruction_pointer, args[6].
struct Data {
    nr: u32,
    arch: u32,
    args: [u64; 6],
}

impl Data {
    fn word(&self, k: u32) -> u32 {
        let mut b = [0u8; 64];
        b[0..4].copy_from_slice(&self.nr.to_le_bytes());
        b[4..8].copy_from_slice(&self.arch.to_le_bytes());
        for (i, a) in self.args.iter().enumerate() {
            b[16 + 8 * i..24 + 8 * i].copy_from_slice(&a.to_le_bytes());
        }
        let k = k as usize;
        u32::from_le_bytes(b[k..k + 4].try_into().unwrap())
    }
}

/// One struct sock_filter (filter.h): code, jt, jf, k.
#[derive(Clone, Copy, Debug)]
struct Bpf {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

/// The program's filter: init_fprog is struct sock_fprog, the length (u16)
/// at 0 and the pointer at 8.
fn filter(p: &Program) -> Vec<Bpf> {
    let fprog = addr(p, "init_fprog");
    let len = u16::from_le_bytes(bytes(p, fprog, 2).try_into().unwrap());
    let at = u64_at(p, fprog + 8);
    (0..u64::from(len))
        .map(|i| {
            let b = bytes(p, at + 8 * i, 8);
            Bpf {
                code: u16::from_le_bytes([b[0], b[1]]),
                jt: b[2],
                jf: b[3],
                k: u32::from_le_bytes(b[4..8].try_into().unwrap()),
            }
        })
        .collect()
}

// The opcodes these filters use (bpf_common.h): BPF_LD|BPF_W|BPF_ABS,
// BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K.
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x15;
const RET_K: u16 = 0x06;

/// What the kernel's seccomp_check_filter and bpf_check_classic demand of
/// these opcodes: 1..=4096 instructions, loads 4-aligned inside
/// seccomp_data, jumps inside the program, and a return at the end.
fn check(f: &[Bpf]) {
    assert!(!f.is_empty() && f.len() <= 4096);
    for (pc, i) in f.iter().enumerate() {
        match i.code {
            LD_W_ABS => assert!(i.k % 4 == 0 && i.k < 64, "load at {pc}: {i:?}"),
            JEQ_K => {
                for off in [i.jt, i.jf] {
                    assert!(pc + 1 + usize::from(off) < f.len(), "jump at {pc}");
                }
            }
            RET_K => {}
            c => panic!("opcode {c:#x} at {pc}: not one these programs use"),
        }
    }
    assert_eq!(f[f.len() - 1].code, RET_K, "the last instruction returns");
}

/// Runs the filter on `d`: (verdict, instructions executed, the seccomp_data
/// offsets loaded).
fn run(f: &[Bpf], d: &Data) -> (u32, usize, Vec<u32>) {
    let (mut a, mut pc, mut n, mut loads) = (0u32, 0usize, 0usize, Vec::new());
    loop {
        let i = f[pc];
        n += 1;
        pc += 1;
        match i.code {
            LD_W_ABS => {
                a = d.word(i.k);
                loads.push(i.k);
            }
            JEQ_K => pc += usize::from(if a == i.k { i.jt } else { i.jf }),
            RET_K => return (i.k, n, loads),
            _ => unreachable!(),
        }
    }
}

fn getppid_with(arg0: u64) -> Data {
    Data {
        nr: SYS_GETPPID as u32,
        arch: AUDIT_ARCH_RISCV64,
        args: [arg0, 0, 0, 0, 0, 0],
    }
}

#[test]
fn the_argument_filters_test_args0_with_n_compares_so_the_cache_cannot_answer() {
    // init-seccomp.inc: load args[0] (offset 16), N compares with constants
    // 0x5ca1ab00 + i that jump to ERRNO(EPERM) on a match, else ALLOW:
    // N + 3 instructions, N + 2 run for an argument that matches none.
    for (name, n) in [("seccomp-arg1", 1), ("seccomp", 8), ("seccomp-arg64", 64)] {
        let f = filter(&load(name));
        check(&f);
        assert_eq!(f.len(), n + 3, "{name}");
        // The loop's getppid: args[0] is what the wrapper shifted down into
        // a0, -4096 from the fifth iteration on (init-seccomp.inc).
        for arg in [(-4096i64) as u64, 0, 0x1_0000, u64::MAX] {
            let (v, ran, loads) = run(&f, &getppid_with(arg));
            assert_eq!(v, SECCOMP_RET_ALLOW, "{name}: args[0] = {arg:#x}");
            assert_eq!(ran, n + 2, "{name}");
            // The verdict depends on args[0], so the action cache
            // (seccomp_cache_prepare emulates the filter knowing only nr and
            // arch) cannot mark getppid allowed.
            assert_eq!(loads, [16], "{name}");
        }
        // It really tests the argument: each constant (only its low 32 bits
        // are loaded) is refused with EPERM, after i + 1 compares.
        for c in 0..n as u64 {
            let (v, ran, _) = run(&f, &getppid_with(0x5ca1_ab00 + c));
            assert_eq!(v, SECCOMP_RET_ERRNO | EPERM, "{name}: constant {c}");
            assert_eq!(ran, 1 + c as usize + 1 + 1, "{name}");
        }
    }
}

#[test]
fn the_allow_list_answers_getppid_from_nr_and_arch_alone() {
    let f = filter(&load("seccomp-allow"));
    check(&f);
    let verdict = |nr: u64, arch: u32, arg0: u64| {
        let d = Data {
            nr: nr as u32,
            arch,
            args: [arg0, 1, 2, 3, 4, 5],
        };
        run(&f, &d)
    };
    // The four calls the init makes after the filter are allowed whatever
    // their arguments, having loaded arch (4) and nr (0) only: what
    // seccomp_cache_prepare needs to set their bits in allow_native.
    for nr in [SYS_GETPPID, SYS_WRITE, SYS_EXIT, SYS_EXIT_GROUP] {
        for arg in [0, u64::MAX, 0x5ca1_ab00] {
            let (v, _, loads) = verdict(nr, AUDIT_ARCH_RISCV64, arg);
            assert_eq!(v, SECCOMP_RET_ALLOW, "nr {nr}");
            assert_eq!(loads, [4, 0], "nr {nr}");
        }
    }
    // Anything else, and another arch, is refused with an errno (not a
    // kill: the init is pid 1).
    for (nr, arch) in [(SYS_PRCTL, AUDIT_ARCH_RISCV64), (SYS_GETPPID, 0x4000_00f3)] {
        let (v, _, _) = verdict(nr, arch, 0);
        assert_eq!(v & SECCOMP_RET_ACTION_FULL, SECCOMP_RET_ERRNO, "nr {nr}");
    }
}

#[test]
fn the_errno_filter_refuses_getppid_with_eperm_and_allows_the_rest() {
    let f = filter(&load("seccomp-errno"));
    check(&f);
    // getppid: ERRNO(EPERM): the raw call returns -1 (-EPERM), which is
    // also what the wrapper returns for an error, so the loop's check
    // against the first (raw) answer holds.
    let (v, ran, _) = run(&f, &getppid_with(0));
    assert_eq!(v, SECCOMP_RET_ERRNO | EPERM);
    assert_eq!(ran, 3, "ld nr, jeq, ret");
    for nr in [SYS_WRITE, SYS_EXIT] {
        let d = Data {
            nr: nr as u32,
            arch: AUDIT_ARCH_RISCV64,
            args: [0; 6],
        };
        assert_eq!(run(&f, &d).0, SECCOMP_RET_ALLOW, "nr {nr}");
    }
}

/// The ecalls on every path from `start` back to it (both arms of every
/// branch, calls followed, `ret` back to the caller); a path that never
/// comes back (the error exit's spin) is not one. At most two kept.
fn loop_paths(p: &Program, start: u64) -> Vec<Vec<u64>> {
    let (mut done, mut seen) = (Vec::new(), HashSet::new());
    let mut work = vec![(start, Vec::<u64>::new(), Vec::<u64>::new(), true)];
    while let Some((pc, stack, mut calls, first)) = work.pop() {
        if pc == start && !first {
            done.push(calls);
            continue;
        }
        if !seen.insert((pc, stack.clone(), calls.clone())) {
            continue;
        }
        let i = insn_at(p, pc);
        let next = pc + u64::from(i.len);
        let target = pc.wrapping_add(i.imm as u64);
        match i.op {
            Op::Ecall => {
                if calls.len() < 2 {
                    calls.push(pc);
                }
                work.push((next, stack, calls, false));
            }
            Op::Jal => {
                let mut stack = stack;
                if i.rd != 0 {
                    stack.push(next);
                }
                work.push((target, stack, calls, false));
            }
            Op::Jalr if i.rd == 0 && i.rs1 == 1 && i.imm == 0 => {
                let mut stack = stack;
                let back = stack.pop().expect("ret with nothing called");
                work.push((back, stack, calls, false));
            }
            Op::Jalr => panic!("indirect jump at {pc:#x}"),
            Op::Branch(_) => {
                work.push((target, stack.clone(), calls.clone(), false));
                work.push((next, stack, calls, false));
            }
            _ => work.push((next, stack, calls, false)),
        }
    }
    done
}

#[test]
fn every_iteration_of_each_work_init_makes_the_one_ecall_at_init_ecall() {
    for name in WORK_INITS {
        let p = load(name);
        let paths = loop_paths(&p, addr(&p, "init_loop"));
        assert!(!paths.is_empty(), "{name}");
        for path in paths {
            assert_eq!(path, [addr(&p, "init_ecall")], "{name}");
        }
        // The setup's own ecalls are elsewhere: `trapscope snapshot` counts
        // executions of init_ecall only.
        let setup = addr(&p, "init_setup");
        assert_ne!(setup, addr(&p, "init_ecall"));
        assert!(!(addr(&p, "init_loop")..=addr(&p, "init_ecall")).contains(&setup));
    }
}

#[test]
fn snapshot_accepts_each_work_init_without_v() {
    // `trapscope snapshot --init NAME` knows the new names and, as they run
    // no vector instruction, asks for no --vlen: with a minikernel ELF as
    // --kernel it gets as far as the Image check, as --init getppid does.
    let out = std::env::temp_dir().join(format!("trapscope-init-work-{}", std::process::id()));
    let elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel.elf");
    for name in WORK_INITS.iter().copied().chain(["getppid"]) {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
            .arg("snapshot")
            .arg("--kernel")
            .arg(&elf)
            .arg("--vmlinux")
            .arg(&elf)
            .args(["--init", name, "-o"])
            .arg(&out)
            .env("TRAPSCOPE_QEMU", "/nonexistent/qemu")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains("not a kernel Image"), "{name}: {err}");
    }
    assert!(!out.exists());
}

use crate::snapshot_util;

#[test]
fn a_snapshot_ends_at_the_kernels_panic_with_the_inits_message() {
    // An init whose setup fails writes its line and exits; as pid 1 the
    // kernel then panics and never makes the loop's syscall. The snapshot
    // ends there, with the console's lines, not at --timeout.
    // guest-asm/bad/console_panic.S prints those lines bare-metal.
    if !snapshot_util::qemu_or_skip() {
        return;
    }
    let dir = snapshot_util::scratch("init-work-panic");
    let out_dir = dir.join("out");
    let start = std::time::Instant::now();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_trapscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["snapshot", "--elf", "assets/guest/bad/console_panic.elf"])
        .args(["--ecall-symbol", "never_reached", "--loop-symbol", "_start"])
        .args(["--timeout", "60", "-o"])
        .arg(&out_dir)
        .output()
        .unwrap();
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let last = err.lines().last().unwrap_or("");
    assert!(
        err.lines()
            .all(|l| l == last || l.starts_with("trapscope: snapshot: ")),
        "{err}"
    );
    for needle in [
        "trapscope: ",
        "the kernel stopped with a panic",
        "never_reached",
        "0 of 100",
        "enable CONFIG_SECCOMP",
        "Kernel panic - not syncing",
    ] {
        assert!(last.contains(needle), "{needle:?} in {last}");
    }
    // Checked once a second: well before the 60 s timeout.
    assert!(took < std::time::Duration::from_secs(20), "took {took:?}");
    assert!(!out_dir.exists(), "no snapshot written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn code_far_from_every_symbol_is_named_by_none() {
    // A JIT's code (the riscv64 BPF JIT's region, below a vmlinux's text)
    // lies far from every symbol: Program::symbol_at names an unsized
    // symbol only within 64 KiB of it (src/program/).
    let p = load("seccomp");
    let last = p.symbols().iter().map(|s| s.addr).max().unwrap();
    assert!(p.symbol_at(last + 0x10_0000).is_none());
    // Near its symbols, a pc is still named: by the sized function that
    // covers it (init_loop is a label inside main).
    let at = addr(&p, "init_loop");
    let main = addr(&p, "main");
    assert_eq!(
        p.symbol_at(at).map(|(s, off)| (s.name.as_str(), off)),
        Some(("main", at - main))
    );
    // And an unsized symbol names what follows it within 64 KiB.
    let end = addr(&p, "init_fail_num_end");
    assert_eq!(p.symbol_at(end + 0x100).map(|(s, _)| s.addr), Some(end));
}

#[test]
fn symbols_of_sections_not_loaded_are_not_addresses() {
    // A vmlinux has symbols in .debug_info (the EFI stub's
    // `__efistub_.Ldebug_info0`): their values are offsets into a section
    // that is not in memory (no SHF_ALLOC), so they name no code.
    if !snapshot_util::binutils_or_skip() {
        return;
    }
    let dir = snapshot_util::scratch("init-work-nonalloc");
    let (src, obj, elf) = (dir.join("t.S"), dir.join("t.o"), dir.join("t.elf"));
    std::fs::write(
        &src,
        "\t.text\n\t.globl _start\n_start:\n\tnop\n\tret\n\t.section .debug_info, \"\", @progbits\n\t.skip 0x40\n\t.globl in_debug\nin_debug:\n\t.byte 0\n",
    )
    .unwrap();
    let run = |c: &mut std::process::Command| assert!(c.status().unwrap().success(), "{c:?}");
    run(std::process::Command::new("riscv64-linux-gnu-as")
        .arg("-o")
        .arg(&obj)
        .arg(&src));
    run(std::process::Command::new("riscv64-linux-gnu-ld")
        .args(["--build-id=none", "-Ttext=0x80000000", "-o"])
        .arg(&elf)
        .arg(&obj));
    let p = Program::load(&elf).unwrap();
    assert!(p.symbol("_start").is_some());
    assert!(p.symbol("in_debug").is_none(), "a .debug_info symbol");
    let _ = std::fs::remove_dir_all(&dir);
}
