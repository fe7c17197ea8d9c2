//! Syscall user dispatch and signal delivery in the minikernel (seed 002):
//! guest-asm/minikernel/sud.S, signal.S and user_sud.S, run through
//! tests/data/sud.toml (ras-trap-entry.toml's benchmark and phases, with
//! the `sud` knob). Every per-iteration figure is the hand count in sud.S's
//! comment block; kernel.S's for the fast path.

use std::path::Path;
use std::rc::Rc;

use trapscope::machine::{Outcome, Program, Until};
use trapscope::scenario::Scenario;
use trapscope::session::{self, RunOpts};
use trapscope::trace::{Event, EventKind, Priv};

fn scenario() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sud.toml")).unwrap()
}

fn with(knobs: &[(&str, u64)]) -> RunOpts {
    RunOpts {
        set: knobs.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..RunOpts::default()
    }
}

fn run(s: &Scenario, variant: &str, knobs: &[(&str, u64)]) -> session::VariantRun {
    session::run_variant(s, s.variant(variant).unwrap(), &with(knobs)).unwrap()
}

fn function(r: &session::VariantRun, name: &str) -> f64 {
    r.functions_per_iteration
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("{name} did not run in the window"))
        .instructions
}

// The SIGSYS the kernel delivers for a blocked call (include/uapi:
// siginfo, signal numbers; minikernel-defs.inc's AUDIT_ARCH_RISCV64).
const SIGSYS: u64 = 31;
const SYS_USER_DISPATCH: u32 = 2;
const AUDIT_ARCH_RISCV64: u32 = 0xc000_00f3;
const SYS_GETPPID: u64 = 173;
const SYS_RT_SIGRETURN: u64 = 139;
// struct rt_sigframe (arch/riscv/kernel/signal.c and the uapi headers):
// info at 0, uc at 128; uc_stack.ss_flags 16 + 8, uc_sigmask 40,
// uc_mcontext 176 (pc, then x1..x31), the reserved word and END header at
// mcontext + 772 / 776 / 780.
const FRAME_SIZE: u64 = 1088;
const UC: u64 = 128;
const MC: u64 = UC + 176;
// task_struct's blocked mask (TASK_SIG_BLOCKED, minikernel-signal.inc).
const TASK_SIG_BLOCKED: u64 = 648;

#[test]
fn with_every_knob_off_the_fast_path_is_kernel_s_hand_count() {
    // kernel.S "Hand count per getppid call": user 16, entry 64 / 63,
    // syscall 58, exit 61.
    let s = scenario();
    for (v, entry) in [("before", 64.0), ("after", 63.0)] {
        let r = run(&s, v, &[("sud", 0)]);
        assert_eq!(r.exit_code, Some(0), "{v}: {:?}", r.error);
        let p = &r.insns_per_iteration;
        assert_eq!(
            (p["user"], p["entry"], p["syscall"], p["exit"]),
            (16.0, entry, 58.0, 61.0),
            "{v}"
        );
        assert_eq!(r.traps_per_iteration, 1.0);
        assert!(
            r.functions_per_iteration
                .iter()
                .all(|f| f.name != "syscall_user_dispatch")
        );
    }
}

#[test]
fn the_allow_selector_costs_the_slow_paths_and_the_selector_read() {
    // sud.S, knob_sud = 1: syscall 35 + 14 + 37 + 24 + 10 = 120, exit
    // 21 + 35 + 43 = 99; the call still runs (one trap, the real getppid).
    let s = scenario();
    let r = run(&s, "before", &[("sud", 1)]);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    let p = &r.insns_per_iteration;
    assert_eq!(
        (p["user"], p["entry"], p["syscall"], p["exit"]),
        (16.0, 64.0, 120.0, 99.0)
    );
    assert_eq!(p["total"], 299.0);
    assert_eq!(r.traps_per_iteration, 1.0);
    assert_eq!(function(&r, "syscall_user_dispatch"), 24.0);
    assert_eq!(function(&r, "sys_getppid"), 10.0);
}

#[test]
fn the_block_selector_answers_getppid_from_the_sigsys_handler() {
    // sud.S, knob_sud = 2: two traps per iteration (the blocked getppid,
    // the handler's rt_sigreturn); user 33, entry 2 x 64 (2 x 63), syscall
    // 186 + 608, exit 874 + 99. Exit 0: every getppid() answered
    // bench_expected (the parent, 1).
    let s = scenario();
    for (v, entry) in [("before", 128.0), ("after", 126.0)] {
        let r = run(&s, v, &[("sud", 2)]);
        assert_eq!(r.exit_code, Some(0), "{v}: {:?}", r.error);
        assert_eq!(r.iterations, 100);
        assert_eq!(r.traps_per_iteration, 2.0, "{v}");
        let p = &r.insns_per_iteration;
        assert_eq!(
            (p["user"], p["entry"], p["syscall"], p["exit"]),
            (33.0, entry, 794.0, 978.0),
            "{v}"
        );
        assert_eq!(p["total"], 1933.0 - (128.0 - entry));
        // Pieces of it (sud.S's list).
        for (f, n) in [
            ("syscall_user_dispatch", 50.0 + 17.0),
            ("force_sig_info_to_task", 64.0),
            ("arch_do_signal_or_restart", 45.0),
            ("get_signal", 39.0),
            ("dequeue_synchronous_signal", 47.0),
            ("setup_rt_frame", 70.0),
            ("setup_sigcontext", 38.0),
            (
                "__asm_copy_to_user",
                36.0 + 11.0 + 166.0 + 171.0 + 11.0 + 166.0 + 171.0,
            ),
            ("recalc_sigpending", 3.0 * 15.0),
            ("sud_sigsys_handler", 15.0),
            ("__vdso_rt_sigreturn", 2.0),
            ("sys_rt_sigreturn", 38.0),
            ("restore_sigcontext", 48.0),
            ("__fstate_restore", 38.0),
            ("sys_getppid", 0.0),
        ] {
            let got = r
                .functions_per_iteration
                .iter()
                .find(|x| x.name == f)
                .map_or(0.0, |x| x.instructions);
            assert_eq!(got, n, "{v}: {f}");
        }
    }
}

#[test]
fn fp_state_survives_a_handler_that_clobbers_it() {
    // knob_sud_handler = 1: the handler fails the benchmark unless fs0 is
    // 1.0 live and in its frame, then sets it to 0.0; only rt_sigreturn's
    // restore_fp_state brings 1.0 back for the next call. sud.S: the
    // handler is 10 longer (25), the kernel's figures unchanged.
    let s = scenario();
    let r = run(&s, "before", &[("sud", 2), ("sud_handler", 1)]);
    assert_eq!(r.exit_code, Some(0), "{:?}", r.error);
    let p = &r.insns_per_iteration;
    assert_eq!((p["user"], p["syscall"], p["exit"]), (43.0, 794.0, 978.0));
    assert_eq!(function(&r, "sud_sigsys_handler"), 25.0);
    assert_eq!(function(&r, "__fstate_restore"), 38.0);
    // The Dirty state is saved once, at the first delivery (warm-up, after
    // sud_setup's fcvt.d.l); every later one finds FS Clean.
    let v = s.variant("before").unwrap();
    let mut m = session::build_machine(&s, v, &with(&[("sud", 2), ("sud_handler", 1)])).unwrap();
    let save = v.program.symbol("__fstate_save").unwrap().addr;
    let timed = v.program.symbol("bench_timed_loop").unwrap().addr;
    let until = |addrs| Until {
        addrs,
        max_insns: Some(5_000_000),
        ..Until::default()
    };
    assert_eq!(m.run(&until(vec![save, timed])), Outcome::ReachedAddr(save));
    assert_eq!(m.run(&until(vec![save])), Outcome::Exited(0));
}

#[test]
fn each_dispatched_call_is_one_signal_and_the_exit_goes_through_the_handler() {
    // 10 warm-up + 100 timed getppid() calls, then main's exit(0), which is
    // dispatched too: the handler makes it from the dispatcher range.
    let s = scenario();
    let v = s.variant("before").unwrap();
    let mut m = session::build_machine(&s, v, &with(&[("sud", 2)])).unwrap();
    let o = m.run(&Until {
        max_insns: Some(5_000_000),
        ..Until::default()
    });
    assert_eq!(o, Outcome::Exited(0));
    let p = &v.program;
    let read = |name: &str| m.read_u64(p.symbol(name).unwrap().addr).unwrap();
    assert_eq!(read("stat_signal"), 111);
    assert_eq!(read("bench_last_ppid"), 1);
    assert_eq!(read("sud_selector") & 0xff, 1, "BLOCK");
}

#[test]
fn the_handler_sees_the_frame_linux_builds_and_sigreturn_restores_every_register() {
    let s = scenario();
    let v = s.variant("after").unwrap();
    let p = v.program.clone();
    let addr = |n: &str| p.symbol(n).unwrap_or_else(|| panic!("{n}")).addr;
    let handler = addr("sud_sigsys_handler");
    let ecall = addr("user_syscall_ecall");
    let opts = RunOpts {
        log_events: 64,
        ..with(&[("sud", 2)])
    };
    let mut m = session::build_machine(&s, v, &opts).unwrap();
    let budget = Some(1_000_000);
    let mut checked = 0;
    while checked < 3 {
        // The next getppid's ecall (from the wrapper, in U-mode).
        match m.run(&Until {
            kinds: vec![EventKind::TrapEnter],
            max_insns: budget,
            ..Until::default()
        }) {
            Outcome::ReachedEvent(_) => {}
            o => panic!("{o:?}"),
        }
        let from_wrapper = m.observer().log.iter().rev().find_map(|e| match e.event {
            Event::TrapEnter {
                from, cause, epc, ..
            } => Some(from == Priv::U && cause == 8 && epc == ecall),
            _ => None,
        });
        let before = m.gprs();
        if from_wrapper != Some(true) || before[17] != SYS_GETPPID {
            continue;
        }
        // The kernel's answer: a jump to the handler with the frame.
        assert_eq!(
            m.run(&Until {
                addrs: vec![handler],
                max_insns: budget,
                ..Until::default()
            }),
            Outcome::ReachedAddr(handler)
        );
        assert_eq!(m.priv_(), Priv::U);
        let g = m.gprs();
        let frame = (before[2] - FRAME_SIZE) & !15;
        assert_eq!(
            g[2], frame,
            "sp = the frame, 16-byte aligned below the user sp"
        );
        assert_eq!(g[10], SIGSYS, "a0 = the signal");
        assert_eq!(g[11], frame, "a1 = &frame->info");
        assert_eq!(g[12], frame + UC, "a2 = &frame->uc");
        assert_eq!(g[1], addr("__vdso_rt_sigreturn"), "ra = the trampoline");
        let w = |a: u64| u32::from_le_bytes(m.read_mem(a, 4).unwrap().try_into().unwrap());
        let d = |a: u64| m.read_u64(a).unwrap();
        // siginfo: SIGSYS, SYS_USER_DISPATCH, the pc after the ecall, the
        // syscall number, the arch; nothing else.
        assert_eq!(u64::from(w(frame)), SIGSYS);
        assert_eq!(w(frame + 4), 0, "si_errno");
        assert_eq!(w(frame + 8), SYS_USER_DISPATCH);
        assert_eq!(d(frame + 16), ecall + 4, "si_call_addr");
        assert_eq!(u64::from(w(frame + 24)), SYS_GETPPID);
        assert_eq!(w(frame + 28), AUDIT_ARCH_RISCV64);
        assert!(m.read_mem(frame + 48, 80).unwrap().iter().all(|&b| b == 0));
        // ucontext: flags, link, a disabled stack, an empty mask.
        assert_eq!(d(frame + UC), 0);
        assert_eq!(d(frame + UC + 8), 0);
        assert_eq!(w(frame + UC + 16 + 8), 2, "SS_DISABLE");
        assert_eq!(d(frame + UC + 40), 0, "uc_sigmask: nothing was blocked");
        // sigcontext: pc past the ecall, x1..x31 as the call left them (a0
        // rolled back to the argument it had, i.e. unchanged).
        assert_eq!(d(frame + MC), ecall + 4);
        for (r, &x) in before.iter().enumerate().skip(1) {
            assert_eq!(d(frame + MC + 8 * r as u64), x, "sc_regs x{r}");
        }
        // The FP state (the process never wrote an f register: zeros), the
        // reserved word and the END header.
        assert!(
            m.read_mem(frame + MC + 256, 264)
                .unwrap()
                .iter()
                .all(|&b| b == 0)
        );
        assert_eq!(w(frame + MC + 772), 0);
        assert_eq!((w(frame + MC + 776), w(frame + MC + 780)), (0, 0));
        // While the handler runs SIGSYS is blocked (no SA_NODEFER).
        let blocked = m.read_u64(addr("task_bench") + TASK_SIG_BLOCKED).unwrap();
        assert_eq!(blocked, 1 << (SIGSYS - 1));
        // Back in the wrapper after rt_sigreturn: every register as before
        // the ecall but a0, the emulated answer.
        let mut sigreturned = false;
        loop {
            match m.run(&Until {
                kinds: vec![EventKind::TrapReturn, EventKind::TrapEnter],
                max_insns: budget,
                ..Until::default()
            }) {
                Outcome::ReachedEvent(_) => {}
                o => panic!("{o:?}"),
            }
            if m.priv_() == Priv::S && m.gprs()[17] == SYS_RT_SIGRETURN {
                sigreturned = true;
            }
            if m.priv_() == Priv::U {
                break;
            }
        }
        assert!(sigreturned, "the trampoline's rt_sigreturn");
        assert_eq!(m.pc(), ecall + 4);
        let after = m.gprs();
        for (r, (a, b)) in after.iter().zip(&before).enumerate().skip(1) {
            if r != 10 {
                assert_eq!(a, b, "x{r} changed across the signal");
            }
        }
        assert_eq!(after[10], 1, "the emulated getppid: init");
        assert_eq!(
            m.read_u64(addr("task_bench") + TASK_SIG_BLOCKED).unwrap(),
            0,
            "mask restored"
        );
        checked += 1;
    }
}

#[test]
fn an_invalid_selector_kills_the_process_with_sigsys() {
    // knob_sud = 3: exit code 128 + SIGSYS after four traps (rt_sigaction,
    // prctl, the first warm-up getppid, the firmware's SBI reset), though
    // a handler is installed: force_exit_sig resets it.
    let s = scenario();
    for v in ["before", "after"] {
        let r = run(&s, v, &[("sud", 3)]);
        assert_eq!(r.exit_code, Some(128 + SIGSYS), "{v}");
        assert_eq!(r.traps, 4, "{v}");
        assert_eq!(r.iterations, 0, "{v}: died before the timed loop");
    }
}

#[test]
fn rt_sigreturn_refuses_a_spoilt_frame_with_sigsegv() {
    // knob_sud_handler = 2: a nonzero reserved word; restore_sigcontext
    // says -EINVAL, badframe forces SIGSEGV, which has no handler: 128 + 11
    // after five traps (rt_sigaction, prctl, getppid, rt_sigreturn, the
    // SBI reset).
    let s = scenario();
    let r = run(&s, "before", &[("sud", 2), ("sud_handler", 2)]);
    assert_eq!(r.exit_code, Some(128 + 11));
    assert_eq!(r.traps, 5);
}

#[test]
fn with_sv39_on_the_kernel_reaches_user_memory_only_with_sum() {
    // minikernel-sv39.elf: the user program's pages are U pages, so every
    // kernel access to them (the selector byte, the frame, the sigaction)
    // faults unless sstatus.SUM is set around it, as the entry leaves it
    // clear. The loop's figures are the identity build's (sv39.S's set-up
    // runs at boot only).
    let mut s = scenario();
    let p = Rc::new(
        Program::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/guest/minikernel-sv39.elf"),
        )
        .unwrap(),
    );
    for v in &mut s.variants {
        v.program = p.clone();
    }
    // (sud, sud_handler, exit code, total per iteration: sud.S's counts)
    for (k, handler, code, total) in [
        (1, 0, 0, Some(299.0)),
        (2, 0, 0, Some(1933.0)),
        (2, 1, 0, Some(1943.0)),
        (2, 2, 139, None),
        (3, 0, 159, None),
    ] {
        let r = run(&s, "before", &[("sud", k), ("sud_handler", handler)]);
        let what = format!("sud={k} handler={handler}");
        assert_eq!(r.exit_code, Some(code), "{what}: {:?}", r.error);
        if let Some(t) = total {
            assert_eq!(r.insns_per_iteration["total"], t, "{what}");
        }
    }
}

#[test]
fn an_unknown_sud_setting_fails_the_setup() {
    // sud_setup returns -EINVAL; main exits with status 2.
    let s = scenario();
    let r = run(&s, "before", &[("sud", 4)]);
    assert_eq!(r.exit_code, Some(2));
}

#[test]
fn sud_runs_are_the_same_in_block_mode_and_single_step() {
    let s = scenario();
    for k in [1, 2, 3] {
        let v = s.variant("before").unwrap();
        let block = session::run_variant(&s, v, &with(&[("sud", k)])).unwrap();
        let step = session::run_variant(
            &s,
            v,
            &RunOpts {
                single_step: true,
                ..with(&[("sud", k)])
            },
        )
        .unwrap();
        assert_eq!(block.exit_code, step.exit_code, "sud={k}");
        assert_eq!(block.phases, step.phases, "sud={k}");
        assert_eq!(block.events, step.events, "sud={k}");
    }
}
