//! The independent oracle (split from work_seccomp.rs, whose runners and
//! layout constants it uses): the classic filters decoded from guest memory
//! and run by a small cBPF evaluator written here agree with the kernel's
//! action cache and verdicts.

use super::*;

// ---------------------------------------------------------------------------
// The oracle: a classic BPF evaluator over struct seccomp_data
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
struct Insn {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

fn decode(m: &Machine<Stats>, fprog: u64) -> Vec<Insn> {
    let len = u16::from_le_bytes(m.read_mem(fprog, 2).unwrap().try_into().unwrap()) as usize;
    let ptr = m.read_u64(fprog + 8).unwrap();
    let b = m.read_mem(ptr, len * 8).unwrap();
    b.chunks(8)
        .map(|c| Insn {
            code: u16::from_le_bytes([c[0], c[1]]),
            jt: c[2],
            jf: c[3],
            k: u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
        })
        .collect()
}

/// A value and whether it depends on anything but nr and arch.
#[derive(Clone, Copy)]
struct V(u32, bool);

/// Runs `prog` on the seccomp_data `data` (64 bytes). Returns the filter's
/// return value and whether any decision on the way (a jump, or the return
/// value itself) depended on a field other than nr and arch.
fn eval(prog: &[Insn], data: &[u8; 64]) -> (u32, bool) {
    let word = |k: u32| u32::from_le_bytes(data[k as usize..k as usize + 4].try_into().unwrap());
    let (mut a, mut x) = (V(0, false), V(0, false));
    let mut mem = [V(0, false); 16];
    let mut pc = 0usize;
    let mut depends = false;
    loop {
        let i = prog[pc];
        pc += 1;
        let src = if i.code & 0x08 != 0 { x } else { V(i.k, false) };
        match i.code {
            0x20 => a = V(word(i.k), i.k >= 8), // ld [k]: nr 0, arch 4
            0x00 => a = V(i.k, false),
            0x01 => x = V(i.k, false),
            0x80 => a = V(64, false),
            0x81 => x = V(64, false),
            0x60 => a = mem[i.k as usize],
            0x61 => x = mem[i.k as usize],
            0x02 => mem[i.k as usize] = a,
            0x03 => mem[i.k as usize] = x,
            0x07 => x = a,
            0x87 => a = x,
            0x06 => return (i.k, depends),
            0x16 => return (a.0, depends || a.1),
            0x05 => pc += i.k as usize,
            c if c & 7 == 4 => {
                let t = a.1 || src.1;
                let v = match c & 0xf0 {
                    0x00 => a.0.wrapping_add(src.0),
                    0x10 => a.0.wrapping_sub(src.0),
                    0x20 => a.0.wrapping_mul(src.0),
                    0x30 if src.0 == 0 => return (0, depends || t),
                    0x30 => a.0 / src.0,
                    0x40 => a.0 | src.0,
                    0x50 => a.0 & src.0,
                    0x60 => a.0.wrapping_shl(src.0),
                    0x70 => a.0.wrapping_shr(src.0),
                    0x80 => a.0.wrapping_neg(),
                    0xa0 => a.0 ^ src.0,
                    _ => panic!("alu {c:#x}"),
                };
                a = V(v, t);
            }
            c if c & 7 == 5 => {
                let taken = match c & 0xf0 {
                    0x10 => a.0 == src.0,
                    0x20 => a.0 > src.0,
                    0x30 => a.0 >= src.0,
                    0x40 => a.0 & src.0 != 0,
                    _ => panic!("jmp {c:#x}"),
                };
                depends |= a.1 || src.1;
                pc += if taken { i.jt } else { i.jf } as usize;
            }
            c => panic!("opcode {c:#x}"),
        }
    }
}

fn seccomp_data(nr: u32, args0: u64) -> [u8; 64] {
    let mut d = [0u8; 64];
    d[0..4].copy_from_slice(&nr.to_le_bytes());
    d[4..8].copy_from_slice(&AUDIT_ARCH_RISCV64.to_le_bytes());
    d[16..24].copy_from_slice(&args0.to_le_bytes());
    d
}

/// bpf_convert_filter's length for a classic program, by its rules (not by
/// the kernel's code): the prologue's 3; RET K 2 (MOV32, EXIT); DIV or MOD
/// by X 5 (the zero test first); a conditional jump 1, plus 1 when its K
/// has bit 31 set (the constant goes through BPF_REG_TMP), plus 1 (a JA)
/// when neither jt nor jf is 0, or when jt is 0 and the jump is a JSET
/// (which has no inverse); everything else 1.
fn ebpf_len(prog: &[Insn]) -> usize {
    3 + prog
        .iter()
        .map(|i| match i.code {
            0x06 => 2,
            0x3c | 0x9c => 5,
            c if c & 7 == 5 && c & 0xf0 != 0 => {
                let tmp = (c & 0x08 == 0 && i.k >= 0x8000_0000) as usize;
                let ja = i.jf != 0 && (i.jt != 0 || c & 0xf0 == 0x40);
                1 + tmp + ja as usize
            }
            _ => 1,
        })
        .sum::<usize>()
}

#[test]
fn the_kernels_cache_and_verdicts_agree_with_an_independent_evaluator() {
    let s = scenario();
    // variant, knob_seccomp, its sock_fprog, the action getppid must get.
    for (v, knob, fprog, getppid_action) in [
        ("allowlist", 1, "seccomp_fprog_allowlist", RET_ALLOW),
        ("args1", 2, "seccomp_fprog_args1", RET_ALLOW),
        ("args8", 3, "seccomp_fprog_args8", RET_ALLOW),
        ("args64", 4, "seccomp_fprog_args64", RET_ALLOW),
        ("errno", 5, "seccomp_fprog_errno", RET_ERRNO),
        ("kill", 6, "seccomp_fprog_kill", RET_KILL_PROCESS),
        ("exerciser", 9, "seccomp_fprog_exerciser", RET_ALLOW),
        ("trap", 10, "seccomp_fprog_trap", RET_TRAP),
    ] {
        let timed = knob == 6 || knob == 10;
        let set = [
            ("seccomp", knob),
            ("iterations", if timed { 1 } else { 20 }),
        ];
        let (m, o) = run_to_end_with(&s, "none", &set);
        let prog = decode(&m, sym(&s, fprog));
        let task = sym(&s, "task_bench");
        let filter = m.read_u64(task + TASK_SECCOMP_FILTER).unwrap();
        assert_ne!(filter, 0, "{v}: a filter is attached");
        let cache: Vec<u64> = (0..8)
            .map(|i| m.read_u64(filter + SF_CACHE + 8 * i).unwrap())
            .collect();
        for nr in 0..NR_SYSCALLS {
            let (ret, depends) = eval(&prog, &seccomp_data(nr, 0));
            let oracle = ret == RET_ALLOW && !depends;
            let kernel = cache[(nr / 64) as usize] >> (nr % 64) & 1 == 1;
            if v == "exerciser" && nr == SYS_GETPPID {
                // Constant, but seccomp_is_const_allow stops at the ST: the
                // cache is conservative, never wrong.
                assert!(oracle && !kernel, "{v}: getppid");
            } else {
                assert_eq!(kernel, oracle, "{v}: cache bit of syscall {nr}");
            }
        }
        // getppid's verdict, and whether the cache holds it.
        let (ret, depends) = eval(&prog, &seccomp_data(SYS_GETPPID, 0));
        assert_eq!(ret & 0xffff_0000, getppid_action, "{v}");
        let bit = cache[(SYS_GETPPID / 64) as usize] >> (SYS_GETPPID % 64) & 1;
        assert_eq!(bit == 1, v == "allowlist", "{v}");
        if v.starts_with("args") {
            assert!(depends, "{v}: getppid's verdict reads args[0]");
            // A matching argument would kill: the first constant.
            let (r, _) = eval(&prog, &seccomp_data(SYS_GETPPID, 0x5ecc_0000));
            assert_eq!(r, RET_KILL_PROCESS, "{v}");
        }
        // And the run did what the verdict says.
        match getppid_action {
            RET_ALLOW | RET_ERRNO => assert_eq!(o, Outcome::Exited(0), "{v}"),
            _ => assert_ne!(o, Outcome::Exited(0), "{v}"),
        }
        let p = m.read_u64(filter + SF_PROG).unwrap();
        let len = u32::from_le_bytes(m.read_mem(p, 4).unwrap().try_into().unwrap());
        assert_eq!(len as usize, ebpf_len(&prog), "{v}: eBPF length");
    }
}
