//! The path each seccomp action takes (split from work_seccomp.rs, whose
//! runners and layout constants it uses): ERRNO returns -errno and the run
//! exits 0, KILL and TRAP skip the call and hand a SIGSYS siginfo on, refused
//! filters fail with EINVAL and leave nothing behind, and block mode and
//! single-stepping agree.

use super::*;

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
