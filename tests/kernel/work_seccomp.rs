//! seccomp on the minikernel (guest-asm/minikernel/seccomp.S, bpf.S,
//! user_seccomp.S): the per-call instruction counts hand-counted in
//! seccomp.S's comment block, the path each action takes, and an
//! independent oracle: the classic filters decoded from the ELF and run by
//! a small cBPF evaluator written here, against the kernel's action cache
//! and verdicts read from guest memory after the run.

use std::path::Path;

use trapscope::machine::{Machine, Outcome, Until};
use trapscope::scenario::Scenario;
use trapscope::session::stats::Stats;
use trapscope::session::{self, RunOpts, VariantRun};

fn scenario() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/seccomp.toml")).unwrap()
}

fn run_opts(s: &Scenario, variant: &str, opts: RunOpts) -> VariantRun {
    session::run_variant(s, s.variant(variant).unwrap(), &opts).unwrap()
}

fn run(s: &Scenario, variant: &str) -> VariantRun {
    run_opts(s, variant, RunOpts::default())
}

/// The machine after running `variant` to its end, for reading guest memory.
fn run_to_end(s: &Scenario, variant: &str) -> (Machine<Stats>, Outcome) {
    run_to_end_with(s, variant, &[])
}

fn run_to_end_with(s: &Scenario, variant: &str, set: &[(&str, u64)]) -> (Machine<Stats>, Outcome) {
    let v = s.variant(variant).unwrap();
    let opts = RunOpts {
        set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..RunOpts::default()
    };
    let mut m = session::build_machine(s, v, &opts).unwrap();
    let o = m.run(&Until {
        max_insns: Some(20_000_000),
        ..Until::default()
    });
    (m, o)
}

fn sym(s: &Scenario, name: &str) -> u64 {
    s.variant("none")
        .unwrap()
        .program
        .symbol(name)
        .unwrap()
        .addr
}

fn phase(r: &VariantRun, p: &str) -> f64 {
    r.insns_per_iteration.get(p).copied().unwrap_or(0.0)
}

fn function(r: &VariantRun, f: &str) -> f64 {
    r.functions_per_iteration
        .iter()
        .find(|x| x.name == f)
        .map_or(0.0, |x| x.instructions)
}

// minikernel-defs.inc / minikernel-seccomp.inc
const TASK_SECCOMP_MODE: u64 = 512;
const TASK_SECCOMP_FILTER: u64 = 520;
const SECCOMP_MODE_FILTER: u32 = 2;
const SECCOMP_MODE_DEAD: u32 = 3;
const SF_CACHE: u64 = 16;
const SF_PROG: u64 = 88;
const NR_SYSCALLS: u32 = 464;
const SYS_GETPPID: u32 = 173;
const AUDIT_ARCH_RISCV64: u32 = 0xc000_00f3;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;
const RET_TRAP: u32 = 0x0003_0000;

#[test]
fn knob_zero_leaves_the_fast_path_as_kernel_s_counts_it() {
    // kernel.S: user 16, entry 64, syscall 58, exit 61; nothing of seccomp.
    let s = scenario();
    let r = run(&s, "none");
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    assert_eq!(phase(&r, "user"), 16.0);
    assert_eq!(phase(&r, "entry"), 64.0);
    assert_eq!(phase(&r, "syscall"), 58.0);
    assert_eq!(phase(&r, "exit"), 61.0);
    assert_eq!(phase(&r, "seccomp"), 0.0);
    assert_eq!(phase(&r, "bpf"), 0.0);
    assert_eq!(phase(&r, "total"), 199.0);
    let (m, _) = run_to_end(&s, "none");
    let task = sym(&s, "task_bench");
    assert_eq!(m.read_u64(task + TASK_SECCOMP_FILTER), Some(0));
    assert_eq!(m.read_u64(task + 8), Some(0), "no syscall_work bit");
}

#[test]
fn per_call_counts_match_seccomp_s_hand_count() {
    // seccomp.S "Hand count per getppid call": (variant, user, syscall,
    // seccomp, bpf, total); entry 64 and exit 61 throughout.
    let s = scenario();
    for (v, user, syscall, seccomp, bpf, total) in [
        ("allowlist", 16.0, 98.0, 95.0, 0.0, 334.0),
        ("args1", 16.0, 98.0, 112.0, 231.0, 582.0),
        ("args8", 16.0, 98.0, 112.0, 322.0, 673.0),
        ("args64", 16.0, 98.0, 112.0, 1050.0, 1401.0),
        ("errno", 20.0, 75.0, 125.0, 197.0, 542.0),
    ] {
        let r = run(&s, v);
        assert_eq!(r.exit_code, Some(0), "{v}: {:?}", r.error);
        assert_eq!(r.iterations, 100, "{v}");
        assert_eq!(phase(&r, "user"), user, "{v}");
        assert_eq!(phase(&r, "entry"), 64.0, "{v}");
        assert_eq!(phase(&r, "syscall"), syscall, "{v}");
        assert_eq!(phase(&r, "seccomp"), seccomp, "{v}");
        assert_eq!(phase(&r, "bpf"), bpf, "{v}");
        assert_eq!(phase(&r, "exit"), 61.0, "{v}");
        assert_eq!(phase(&r, "total"), total, "{v}");
        assert_eq!(function(&r, "__secure_computing"), 20.0, "{v}");
        assert_eq!(r.traps_per_iteration, 1.0, "{v}");
    }
}

#[test]
fn argument_filters_cost_a_plus_b_times_n() {
    // seccomp.S: seccomp + bpf = 330 + 13 N; ___bpf_prog_run = 192 + 13 N.
    let s = scenario();
    for (v, n) in [("args1", 1.0), ("args8", 8.0), ("args64", 64.0)] {
        let r = run(&s, v);
        assert_eq!(
            phase(&r, "seccomp") + phase(&r, "bpf"),
            330.0 + 13.0 * n,
            "{v}"
        );
        assert_eq!(function(&r, "___bpf_prog_run"), 192.0 + 13.0 * n, "{v}");
        assert_eq!(function(&r, "__bpf_prog_run32"), 26.0, "{v}");
        assert_eq!(function(&r, "sys_getppid"), 10.0, "{v}: the call runs");
    }
}

#[test]
fn the_cached_allow_list_runs_no_interpreter_instruction() {
    let s = scenario();
    let r = run(&s, "allowlist");
    assert_eq!(r.exit_code, Some(0));
    assert_eq!(function(&r, "___bpf_prog_run"), 0.0);
    assert_eq!(function(&r, "__bpf_prog_run32"), 0.0);
    assert_eq!(function(&r, "__seccomp_filter"), 75.0);
    assert_eq!(function(&r, "sys_getppid"), 10.0);
    // Nor before or after the window: the cache answers getppid and exit,
    // the only calls made once the filter is in.
    assert_eq!(r.phases.get("bpf").copied().unwrap_or(0), 0);
    let (m, o) = run_to_end(&s, "allowlist");
    assert_eq!(o, Outcome::Exited(0));
    let task = sym(&s, "task_bench");
    let mode = m.read_mem(task + TASK_SECCOMP_MODE, 4).unwrap();
    assert_eq!(
        u32::from_le_bytes(mode.try_into().unwrap()),
        SECCOMP_MODE_FILTER
    );
    assert_eq!(m.read_u64(task + 8).unwrap() & 1, 1, "SYSCALL_WORK_SECCOMP");
}

#[test]
fn errno_returns_minus_errno_and_the_run_exits_0() {
    let s = scenario();
    let (m, o) = run_to_end(&s, "errno");
    assert_eq!(o, Outcome::Exited(0));
    // The kernel put -EPERM in a0; the wrapper returned -1 with errno 1.
    assert_eq!(m.read_u64(sym(&s, "bench_last_ppid")), Some(u64::MAX));
    let e = m.read_mem(sym(&s, "errno"), 4).unwrap();
    assert_eq!(i32::from_le_bytes(e.try_into().unwrap()), 1);
    let r = run(&s, "errno");
    assert_eq!(function(&r, "sys_getppid"), 0.0, "the call is skipped");
}

#[test]
fn kill_skips_the_call_and_hands_a_sigsys_siginfo_to_force_sig_info() {
    let s = scenario();
    let r = run(&s, "kill");
    assert_eq!(r.iterations, 1);
    assert!(!r.window_closed, "the run ends inside the killing call");
    assert_eq!(function(&r, "sys_getppid"), 0.0, "the call is skipped");
    // seccomp.S: __seccomp_filter 117 and force_sig_seccomp 33 for the kill.
    assert_eq!(function(&r, "force_sig_seccomp"), 33.0);
    assert!(function(&r, "force_sig_info") > 0.0);
    let (m, o) = run_to_end(&s, "kill");
    // struct kernel_siginfo (SI_* in minikernel-defs.inc).
    let info = m.read_mem(sym(&s, "seccomp_sigsys_info"), 48).unwrap();
    let w = |o: usize| u32::from_le_bytes(info[o..o + 4].try_into().unwrap());
    let d = |o: usize| u64::from_le_bytes(info[o..o + 8].try_into().unwrap());
    assert_eq!(w(0), 31, "si_signo SIGSYS");
    assert_eq!(w(4), 0, "si_errno: the filter's data");
    assert_eq!(w(8), 1, "si_code SYS_SECCOMP");
    assert_eq!(d(16), sym(&s, "user_syscall_ecall") + 4, "si_call_addr");
    assert_eq!(w(24), SYS_GETPPID, "si_syscall");
    assert_eq!(w(28), AUDIT_ARCH_RISCV64, "si_arch");
    let task = sym(&s, "task_bench");
    let mode = m.read_mem(task + TASK_SECCOMP_MODE, 4).unwrap();
    assert_eq!(
        u32::from_le_bytes(mode.try_into().unwrap()),
        SECCOMP_MODE_DEAD
    );
    // signal.S's force_sig_info: the SIGSYS kills the process on the way
    // out of the call (SIGSYS's default action, 128 + 31).
    assert_eq!(o, Outcome::Exited(159));
}

#[test]
fn trap_skips_the_call_with_a_sigsys_carrying_the_filters_data() {
    // knob 10: SECCOMP_RET_TRAP | 42 for getppid, installed after the
    // warm-up. seccomp.S: __seccomp_filter 108 for the trapping call;
    // force_sig_seccomp 33. No handler is installed, so SIGSYS's default
    // action ends the process on the way out: there is no exit call.
    let s = scenario();
    let set = [("seccomp", 10), ("iterations", 1)];
    let r = run_opts(
        &s,
        "none",
        RunOpts {
            set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            ..RunOpts::default()
        },
    );
    assert_eq!(function(&r, "sys_getppid"), 0.0, "the call is skipped");
    assert_eq!(function(&r, "__seccomp_filter"), 108.0);
    assert_eq!(function(&r, "force_sig_seccomp"), 33.0);
    let (m, o) = run_to_end_with(&s, "none", &set);
    let info = m.read_mem(sym(&s, "seccomp_sigsys_info"), 48).unwrap();
    let w = |o: usize| u32::from_le_bytes(info[o..o + 4].try_into().unwrap());
    assert_eq!((w(0), w(4), w(8), w(24)), (31, 42, 1, SYS_GETPPID));
    let task = sym(&s, "task_bench");
    let mode = m.read_mem(task + TASK_SECCOMP_MODE, 4).unwrap();
    assert_eq!(
        u32::from_le_bytes(mode.try_into().unwrap()),
        SECCOMP_MODE_FILTER
    );
    // TRAP leaves the seccomp mode alone; with no SIGSYS handler the
    // signal's default action ends the process (128 + 31).
    assert_eq!(o, Outcome::Exited(159));
}

#[test]
fn refused_filters_fail_with_einval_and_leave_nothing_behind() {
    // user_seccomp.S: knob 7 loads 16 bits of seccomp_data
    // (seccomp_check_filter refuses it), knob 8 jumps past its end
    // (bpf_check_classic refuses it). seccomp() returns -EINVAL, which
    // seccomp_setup passes on and main stores before exit(2).
    let s = scenario();
    for k in [7, 8] {
        let (m, o) = run_to_end_with(&s, "none", &[("seccomp", k)]);
        assert_eq!(o, Outcome::Exited(2), "knob {k}");
        assert_eq!(m.read_u64(sym(&s, "bench_last_ppid")), Some(-22i64 as u64));
        let task = sym(&s, "task_bench");
        assert_eq!(m.read_u64(task + TASK_SECCOMP_FILTER), Some(0), "knob {k}");
        assert_eq!(m.read_u64(task + 8), Some(0), "knob {k}: no work bit");
        // The prog slot and the filter slot went back.
        let used = m.read_mem(sym(&s, "bpf_prog_slot_used"), 4).unwrap();
        assert_eq!(used, [0; 4], "knob {k}");
        let refs = m.read_mem(sym(&s, "seccomp_filter_slots"), 4).unwrap();
        assert_eq!(refs, [0; 4], "knob {k}");
    }
}

#[test]
fn block_mode_and_single_step_agree() {
    let s = scenario();
    for v in ["args8", "kill"] {
        let a = run(&s, v);
        let b = run_opts(
            &s,
            v,
            RunOpts {
                single_step: true,
                ..RunOpts::default()
            },
        );
        assert_eq!(a.instructions, b.instructions, "{v}");
        assert_eq!(a.events, b.events, "{v}");
        assert_eq!(a.insns_per_iteration, b.insns_per_iteration, "{v}");
    }
}

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
