//! What seccomp costs on the minikernel (split from work_seccomp.rs, whose
//! runners and layout constants it uses): knob 0 leaves the fast path as
//! kernel.S counts it, each call's count matches seccomp.S's hand count,
//! argument filters cost a + b*n, and the cached allow list runs no
//! interpreter instruction.

use super::*;

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
