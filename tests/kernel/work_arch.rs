//! RISC-V's own syscall entry before the 2022 generic-entry conversion
//! (guest-asm/minikernel/entry-arch.S, knob_arch_entry = 1) beside the
//! generic one, on tests/data/arch/arch-entry.toml. Every expected count is
//! a hand count from entry-arch.S's comment block (or kernel.S's for the
//! generic path), repeated beside each assertion.

use crate::common;

use std::path::Path;

use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts, VariantRun};
use trapscope::trace::{EventKind, Stamped};

fn scenario() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/arch/arch-entry.toml"))
        .unwrap()
}

fn run(s: &Scenario, variant: &str, set: &[(&str, u64)]) -> VariantRun {
    let opts = RunOpts {
        set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..RunOpts::default()
    };
    session::run_variant(s, s.variant(variant).unwrap(), &opts).unwrap()
}

fn insns(r: &VariantRun, name: &str) -> Option<f64> {
    r.functions_per_iteration
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.instructions)
}

/// Instructions of `name` over the whole window (iterations x per iteration).
fn window_insns(r: &VariantRun, name: &str) -> u64 {
    (insns(r, name).unwrap_or(0.0) * r.iterations as f64).round() as u64
}

fn ran(r: &VariantRun, name: &str) -> bool {
    insns(r, name).is_some()
}

#[test]
fn arch_fast_path_matches_the_hand_count() {
    let s = scenario();
    let r = run(&s, "arch", &[]);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    assert_eq!(r.iterations, 100);
    assert_eq!(r.traps_per_iteration, 1.0, "one ecall per iteration");
    // getppid's answer: the parent, init (pid 1); main exits 0 only if
    // every call in the loop returned it, and keeps the last one.
    assert_eq!(r.results["last_ppid"], 1.0);
    let p = &r.insns_per_iteration;
    // entry-arch.S: user 16 (as generic), entry 60 (save 50 + dispatch 10),
    // syscall 27 (handle_syscall_arch 17 + sys_getppid 10), exit 50
    // (ret_from_syscall_rejected_arch 3 + ret_from_exception_arch 47).
    assert_eq!(p["user"], 16.0);
    assert_eq!(p["entry"], 60.0);
    assert_eq!(p["syscall"], 27.0);
    assert_eq!(p["exit"], 50.0);
    assert_eq!(p["total"], 153.0);
    assert_eq!(insns(&r, "handle_exception_arch"), Some(60.0));
    // sd orig_a0; addi; sd epc (3), ld work; andi; bnez (3), li NR; la
    // sys_ni (2); bgeu; la table (2); slli; add; ld; jalr (10), sd a0 (1).
    assert_eq!(insns(&r, "handle_syscall_arch"), Some(17.0));
    assert_eq!(insns(&r, "sys_getppid"), Some(10.0));
    assert_eq!(insns(&r, "ret_from_syscall_rejected_arch"), Some(3.0));
    // ld status; csrci; andi; bnez (4), ld flags; andi; bnez (3), addi; sd;
    // csrw sscratch (3), ld; ld; sc.d; csrw; csrw (5), 30 ld, ld sp, sret.
    assert_eq!(insns(&r, "ret_from_exception_arch"), Some(47.0));
    // None of generic entry's functions runs.
    for f in [
        "handle_exception",
        "do_trap_ecall_u",
        "syscall_enter_from_user_mode",
        "syscall_exit_to_user_mode",
        "ret_from_exception",
    ] {
        assert!(!ran(&r, f), "{f} ran on the arch entry");
    }
}

#[test]
fn generic_path_is_unchanged_with_the_knob_0() {
    // kernel.S "Hand count per getppid call", before column: 16, 64, 58, 61.
    let s = scenario();
    let r = run(&s, "generic", &[]);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    let p = &r.insns_per_iteration;
    assert_eq!(p["user"], 16.0);
    assert_eq!(p["entry"], 64.0);
    assert_eq!(p["syscall"], 58.0);
    assert_eq!(p["exit"], 61.0);
    assert_eq!(p["total"], 199.0);
    assert!(
        !r.functions_per_iteration
            .iter()
            .any(|f| f.name.ends_with("_arch")),
        "an arch-entry function ran with knob_arch_entry = 0"
    );
}

#[test]
fn both_entries_make_the_same_traps() {
    // 10 warm-up + 100 timed getppid, exit, the firmware's SBI reset: 112.
    let s = scenario();
    let g = run(&s, "generic", &[]);
    let a = run(&s, "arch", &[]);
    assert_eq!(g.traps, 112);
    assert_eq!(a.traps, g.traps);
    assert_eq!(a.events.get("trap"), g.events.get("trap"));
    assert_eq!(a.events.get("trap-return"), g.events.get("trap-return"));
}

#[test]
fn trace_work_takes_the_arch_slow_path() {
    let s = scenario();
    let r = run(&s, "arch", &[("syscall_work", 4)]);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    assert_eq!(r.results["last_ppid"], 1.0);
    // entry-arch.S, knob_syscall_work = 4: handle_syscall_trace_enter_arch
    // 13 (mv; jal; mv; 8 x ld; bnez; j), do_syscall_trace_enter 25
    // (prologue 5; mv; TRACE test 3; jal; bnez; SECCOMP, TRACEPOINT tests
    // 3 + 3; audit_context 2; li; epilogue 5), handle_syscall_arch still 17
    // (its bnez taken, then check_syscall_nr_arch from the top).
    assert_eq!(insns(&r, "handle_syscall_trace_enter_arch"), Some(13.0));
    assert_eq!(insns(&r, "do_syscall_trace_enter"), Some(25.0));
    assert_eq!(insns(&r, "handle_syscall_arch"), Some(17.0));
    // handle_syscall_trace_exit_arch 3 (mv; jal; j), do_syscall_trace_exit
    // 22 (prologue 5; mv; audit_context 2; TRACE test 3; mv; li; jal;
    // TRACEPOINT test 3; epilogue 5).
    assert_eq!(insns(&r, "handle_syscall_trace_exit_arch"), Some(3.0));
    assert_eq!(insns(&r, "do_syscall_trace_exit"), Some(22.0));
    assert_eq!(insns(&r, "ret_from_syscall_rejected_arch"), Some(3.0));
    assert_eq!(insns(&r, "ret_from_exception_arch"), Some(47.0));
    // The work helpers are the generic path's own (kernel.S's hand count):
    // one report is ptrace_report_syscall and what it calls, 389, behind
    // the entry wrapper's li + tail (2) or the exit wrapper's bnez, li,
    // tail (3).
    let enter_helper = 2.0 + 389.0;
    let exit_helper = 3.0 + 389.0;
    let p = &r.insns_per_iteration;
    assert_eq!(p["syscall"], 27.0 + 13.0 + 25.0 + enter_helper);
    assert_eq!(p["exit"], 50.0 + 3.0 + 22.0 + exit_helper);
    // Generic entry's slow paths do not run.
    assert!(!ran(&r, "syscall_trace_enter"));
    assert!(!ran(&r, "syscall_exit_work"));
    // And with the knob 0 the arch entry's do not.
    let fast = run(&s, "arch", &[]);
    assert!(!ran(&fast, "do_syscall_trace_enter"));
    assert!(!ran(&fast, "do_syscall_trace_exit"));
}

#[test]
fn syscall_user_dispatch_bit_is_ignored_on_the_arch_entry() {
    // SYSCALL_WORK_SYSCALL_USER_DISPATCH (32) is not in 5.x's
    // _TIF_SYSCALL_WORK: the arch entry stays on its fast path (153), while
    // generic entry goes to syscall_trace_enter for it.
    let s = scenario();
    let a = run(&s, "arch", &[("syscall_work", 32)]);
    assert_eq!(a.exit_code, Some(0), "{:?}", a.error);
    assert_eq!(a.insns_per_iteration["total"], 153.0);
    assert!(!ran(&a, "do_syscall_trace_enter"));
    let g = run(&s, "generic", &[("syscall_work", 32)]);
    assert!(ran(&g, "syscall_trace_enter"));
}

#[test]
fn exit_work_loops_through_ret_from_exception_arch() {
    // The one-shot thread flags of knob_thread_work_flags are set at boot,
    // so with no warm-up the first timed call's exit has them. 5.x's
    // work_pending does one piece of work and returns to
    // ret_from_exception_arch, which tests the flags again: +7 per extra
    // pass (ld status; csrci; andi; bnez; ld flags; andi; bnez).
    let s = scenario();
    // _TIF_NEED_RESCHED (8): work_pending_arch 5 (la ra 2; andi; bnez;
    // j schedule), one extra pass.
    let r = run(&s, "arch", &[("warmup", 0), ("thread_work_flags", 8)]);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    assert_eq!(r.results["schedules"], 1.0);
    assert_eq!(window_insns(&r, "work_pending_arch"), 5);
    assert_eq!(window_insns(&r, "ret_from_exception_arch"), 47 * 100 + 7);
    assert!(!ran(&r, "do_notify_resume"));
    // _TIF_SIGPENDING | _TIF_NOTIFY_RESUME (6): work_pending_arch 8 (la ra
    // 2; andi; bnez; csrsi; mv; mv; j), do_notify_resume 21 (prologue 6;
    // mv; mv; andi, beqz, jal; andi, beqz, mv, jal; epilogue 6).
    let r = run(&s, "arch", &[("warmup", 0), ("thread_work_flags", 6)]);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    assert_eq!(window_insns(&r, "work_pending_arch"), 8);
    assert_eq!(window_insns(&r, "do_notify_resume"), 21);
    assert_eq!(window_insns(&r, "ret_from_exception_arch"), 47 * 100 + 7);
    assert!(ran(&r, "arch_do_signal_or_restart"));
    assert!(ran(&r, "resume_user_mode_work"));
    // All three (14): the reschedule alone first, then the rest: two extra
    // passes, work_pending_arch 5 + 8.
    let r = run(&s, "arch", &[("warmup", 0), ("thread_work_flags", 14)]);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    assert_eq!(r.results["schedules"], 1.0);
    assert_eq!(window_insns(&r, "work_pending_arch"), 13);
    assert_eq!(window_insns(&r, "do_notify_resume"), 21);
    assert_eq!(window_insns(&r, "ret_from_exception_arch"), 47 * 100 + 14);
    assert!(!ran(&r, "exit_to_user_mode_loop"));
}

#[test]
fn every_user_program_runs_on_the_arch_entry() {
    // The context-switch benchmark (clone through sys_ptregs_shim,
    // sched_yield), the atomics benchmark (244, which atomics_setup may
    // repoint) and futex_cmpxchg (245): same exit status, same traps on
    // both entries, and for lat_ctx the same schedules (2 tasks x (10
    // warm-up + 5 timed) yields).
    let s = scenario();
    for set in [
        [("ctx_switches", 5)],
        [("atomics_bench", 1)],
        [("probe_bench", 2)],
    ] {
        let g = run(&s, "generic", &set);
        let a = run(&s, "arch", &set);
        assert_eq!(g.exit_code, Some(0), "{set:?} generic: {:?}", g.error);
        assert_eq!(a.exit_code, Some(0), "{set:?} arch: {:?}", a.error);
        assert_eq!(a.traps, g.traps, "{set:?}");
        assert_eq!(a.results["schedules"], g.results["schedules"], "{set:?}");
    }
    let a = run(&s, "arch", &[("ctx_switches", 5)]);
    assert_eq!(a.results["schedules"], 30.0);
}

#[test]
fn user_registers_survive_every_arch_syscall() {
    // The syscall ABI keeps every register but a0, on this entry too (5.x
    // hands a0..a7 to the syscall in place and reloads them all from
    // pt_regs before sret).
    let s = scenario();
    let opts = RunOpts {
        set: vec![("arch_entry".into(), 1)],
        log_events: 8,
        ..RunOpts::default()
    };
    let checked = common::getppid::registers_survive_getppid(&s, "arch", &opts, "arch");
    assert_eq!(checked, 110, "10 warm-up + 100 timed getppid calls");
}

#[test]
fn block_mode_and_single_step_agree_on_the_arch_entry() {
    let s = scenario();
    for work in [0, 4] {
        let opts = |step| RunOpts {
            set: vec![("syscall_work".into(), work)],
            single_step: step,
            // Single-step logs every retired instruction: room for the
            // whole run with the ptrace reports on (~110k instructions).
            log_events: 1_000_000,
            ..RunOpts::default()
        };
        let v = s.variant("arch").unwrap();
        let block = session::run_variant(&s, v, &opts(false)).unwrap();
        let step = session::run_variant(&s, v, &opts(true)).unwrap();
        assert_eq!(block.instructions, step.instructions);
        assert_eq!(block.phases, step.phases);
        assert_eq!(block.insns_per_iteration, step.insns_per_iteration);
        let semantic = |r: &VariantRun| -> Vec<Stamped> {
            r.log
                .iter()
                .filter(|e| e.event.kind() != EventKind::Retired)
                .cloned()
                .collect()
        };
        assert_eq!(semantic(&block), semantic(&step));
    }
}

#[test]
fn the_arch_syscall_path_pairs_every_call_with_its_return() {
    // 5.x's handle_exception reaches handle_syscall by a branch and calls
    // the syscall with `jalr s0` (a push), whose `ret` pops it; the slow
    // paths' `call`s return where they were made, and the `tail`s are
    // plain jumps. So no return goes anywhere but to its call. Generic
    // entry's pre-seed-003 dispatch has two per iteration (kernel.S): `jr
    // t0` (x5, a link register: a return), and the handler's `ret` into
    // ret_from_exception, which no call pushed.
    let s = scenario();
    for work in [0, 4] {
        let a = run(&s, "arch", &[("syscall_work", work)]);
        assert_eq!(a.call_stack.mismatched_returns, 0, "syscall_work {work}");
    }
    let g = run(&s, "generic", &[]);
    assert_eq!(g.call_stack.mismatched_returns_per_iteration, 2.0);
}
