//! The seccomp filters read out of each init's data (split from
//! init_work.rs, whose ELF readers and uapi constants it uses): they pass the
//! kernel's filter checks and, run by the classic-BPF evaluator written here,
//! test args[0] with n compares so the cache cannot answer, answer getppid
//! from nr and arch alone, or refuse getppid with EPERM and allow the rest.

use super::*;

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
